/**
 * The modal the app opened (views.open, views.update), as the console shows it: its text,
 * and its inputs numbered so they can be filled in (`fill 2 10`) and submitted (`submit`) as
 * a `view_submission` shaped like Slack's. One modal at a time, as on a phone.
 */
import { z } from 'zod';
import { CONSOLE } from './identity.js';
import { consoleUser, newTriggerId } from './payloads.js';
import { renderMessage } from './render.js';
import { createStyler } from './style.js';

const Text = z.object({ text: z.string() }).loose();
const OptionSchema = z.object({ text: Text, value: z.string() }).loose();
type Option = z.infer<typeof OptionSchema>;

const Element = z
  .object({
    type: z.string(),
    action_id: z.string(),
    options: z.array(OptionSchema).optional(),
    initial_option: OptionSchema.optional(),
    initial_value: z.string().optional(),
    initial_conversation: z.string().optional(),
    min_value: z.string().optional(),
    max_value: z.string().optional(),
    is_decimal_allowed: z.boolean().optional(),
    default_to_current_conversation: z.boolean().optional(),
  })
  .loose();

const InputBlock = z
  .object({
    type: z.literal('input'),
    block_id: z.string(),
    label: Text,
    optional: z.boolean().optional(),
    element: Element,
  })
  .loose();
type InputBlock = z.infer<typeof InputBlock>;

const OpenedView = z
  .object({
    id: z.string(),
    hash: z.string().optional(),
    type: z.literal('modal'),
    callback_id: z.string().optional(),
    private_metadata: z.string().optional(),
    title: Text,
    submit: Text.optional(),
    blocks: z.array(z.unknown()),
  })
  .loose();
type OpenedView = z.infer<typeof OpenedView>;

/** What a field holds, as Slack puts it in `view.state.values`. */
type FieldValue = Record<string, unknown>;

/** The acknowledgement of a submission: field errors keep the modal open. */
const SubmitAck = z
  .object({
    response_action: z.enum(['errors', 'update', 'push', 'clear']).optional(),
    errors: z.record(z.string(), z.string()).optional(),
    view: z.unknown().optional(),
  })
  .loose();

const SELECTS = new Set(['radio_buttons', 'static_select']);
const TEXTS = new Set(['number_input', 'plain_text_input', 'email_text_input', 'url_text_input']);

export class ModalDesk {
  private view: OpenedView | undefined;
  private inputs: InputBlock[] = [];
  private values = new Map<string, FieldValue>();

  constructor(private readonly options: { write: (text: string) => void; color: boolean }) {}

  get isOpen(): boolean {
    return this.view !== undefined;
  }

  /** A view the app opened or updated: shown, its inputs at their initial values. */
  show(raw: unknown): void {
    const parsed = OpenedView.safeParse(raw);
    if (!parsed.success) return;
    this.view = parsed.data;
    this.inputs = parsed.data.blocks.flatMap((block) => {
      const input = InputBlock.safeParse(block);
      return input.success ? [input.data] : [];
    });
    this.values = new Map(
      this.inputs.flatMap((input) => {
        const initial = initialValue(input.element);
        return initial === undefined ? [] : [[input.block_id, initial] as const];
      }),
    );
    this.draw();
  }

  close(): void {
    this.view = undefined;
    this.inputs = [];
    this.values.clear();
  }

  /** `fill N VALUE`: a choice by its number or its words, or the text typed. */
  fill(number: number, typed: string): string | undefined {
    const input = this.inputs[number - 1];
    if (!input)
      return `There is no field ${number}: the modal has fields 1 to ${this.inputs.length}.`;
    const { element } = input;
    const value = typed.trim();
    if (SELECTS.has(element.type)) {
      const option = chosen(element.options ?? [], value);
      if (!option) return `Field ${number} takes one of: ${choices(element.options ?? [])}.`;
      this.values.set(input.block_id, { type: element.type, selected_option: option });
    } else if (element.type === 'conversations_select' || element.type === 'channels_select') {
      const key = element.type === 'channels_select' ? 'selected_channel' : 'selected_conversation';
      this.values.set(input.block_id, { type: element.type, [key]: value });
    } else if (TEXTS.has(element.type)) {
      const refused = element.type === 'number_input' ? outOfRange(element, value) : undefined;
      if (refused !== undefined) return `Field ${number} ${refused}.`;
      this.values.set(input.block_id, { type: element.type, value });
    } else {
      return `Field ${number} is a ${element.type}, which the console cannot fill in.`;
    }
    this.draw();
    return undefined;
  }

  /** Required fields left empty: Slack refuses these itself, before the app hears anything. */
  missing(): string | undefined {
    const empty = this.inputs
      .map((input, i) => ({ input, number: i + 1 }))
      .filter(
        ({ input }) => !input.optional && describeValue(this.values.get(input.block_id)) === '_',
      );
    if (empty.length === 0) return undefined;
    return empty.map(({ number }) => `field ${number}: This field is required.`).join('\n');
  }

  /** The `view_submission` Slack would send now; undefined when no modal is open. */
  submission(): Record<string, unknown> | undefined {
    const view = this.view;
    if (!view) return undefined;
    const values: Record<string, Record<string, unknown>> = {};
    for (const input of this.inputs) {
      const value = this.values.get(input.block_id);
      values[input.block_id] = {
        [input.element.action_id]: value ?? emptyValue(input.element.type),
      };
    }
    return {
      type: 'view_submission',
      team: { id: CONSOLE.teamId, domain: CONSOLE.teamDomain },
      user: consoleUser(),
      api_app_id: CONSOLE.appId,
      token: CONSOLE.verificationToken,
      trigger_id: newTriggerId(),
      view: { ...view, team_id: CONSOLE.teamId, app_id: CONSOLE.appId, state: { values } },
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
  }

  /** After `submit`: field errors are shown and the modal stays; otherwise it closes. */
  acknowledged(body: unknown): 'errors' | 'closed' {
    const ack = SubmitAck.safeParse(body ?? {});
    if (ack.success && ack.data.response_action === 'errors' && ack.data.errors) {
      const styler = createStyler(this.options.color);
      const byBlock = ack.data.errors;
      const lines = this.inputs.flatMap((input, i) => {
        const error = byBlock[input.block_id];
        return error === undefined ? [] : [`  field ${i + 1}: ${error}`];
      });
      this.options.write(`${styler.dim('The modal says:')}\n${lines.join('\n')}\n`);
      return 'errors';
    }
    if (ack.success && ack.data.response_action === 'update' && ack.data.view) {
      this.show({ ...(ack.data.view as object), id: this.view?.id ?? 'V0' });
      return 'errors';
    }
    this.close();
    return 'closed';
  }

  private draw(): void {
    const view = this.view;
    if (!view) return;
    const styler = createStyler(this.options.color);
    const others = view.blocks.filter((block) => !InputBlock.safeParse(block).success);
    const text = renderMessage({ text: '', blocks: others }, { color: this.options.color }).text;
    const fields = this.inputs.map((input, i) => {
      const optional = input.optional ? ' (optional)' : '';
      const shown = describeValue(this.values.get(input.block_id));
      const offer = SELECTS.has(input.element.type)
        ? `  · ${choices(input.element.options ?? [])}`
        : '';
      return `  [${i + 1}] ${input.label.text}${optional}: ${shown}${offer}`;
    });
    const submit = view.submit?.text ?? 'Submit';
    this.options.write(
      [
        '',
        styler.label(`── modal: ${view.title.text} ──`),
        text,
        ...fields,
        styler.dim(`fill N VALUE to fill field N · submit (${submit}) · cancel`),
        '',
      ].join('\n'),
    );
  }
}

function initialValue(element: z.infer<typeof Element>): FieldValue | undefined {
  if (element.initial_option) {
    return { type: element.type, selected_option: element.initial_option };
  }
  if (element.type === 'conversations_select') {
    const channel =
      element.initial_conversation ??
      (element.default_to_current_conversation ? CONSOLE.channelId : undefined);
    return channel === undefined
      ? undefined
      : { type: element.type, selected_conversation: channel };
  }
  if (element.initial_value !== undefined) {
    return { type: element.type, value: element.initial_value };
  }
  return undefined;
}

/** What Slack itself refuses in a number input (it never reaches the app): why, or nothing. */
function outOfRange(element: z.infer<typeof Element>, typed: string): string | undefined {
  const value = Number(typed);
  if (typed === '' || !Number.isFinite(value)) return 'takes a number';
  if (!element.is_decimal_allowed && !Number.isInteger(value)) return 'takes a whole number';
  if (element.min_value !== undefined && value < Number(element.min_value)) {
    return `takes a number from ${element.min_value}`;
  }
  if (element.max_value !== undefined && value > Number(element.max_value)) {
    return `takes a number up to ${element.max_value}`;
  }
  return undefined;
}

/** An input left empty, as Slack sends it. */
function emptyValue(type: string): FieldValue {
  if (SELECTS.has(type)) return { type, selected_option: null };
  if (type === 'conversations_select') return { type, selected_conversation: null };
  return { type, value: null };
}

function chosen(options: readonly Option[], typed: string): Option | undefined {
  const index = /^\d+$/.test(typed) ? Number(typed) - 1 : -1;
  if (index >= 0 && index < options.length) return options[index];
  const lower = typed.toLowerCase();
  return options.find(
    (o) => o.value.toLowerCase() === lower || o.text.text.toLowerCase() === lower,
  );
}

function choices(options: readonly Option[]): string {
  return options.map((o, i) => `${i + 1}) ${o.text.text}`).join('  ');
}

function describeValue(value: FieldValue | undefined): string {
  if (value === undefined) return '_';
  const option = OptionSchema.safeParse(value.selected_option);
  if (option.success) return option.data.text.text;
  const picked = value.selected_conversation ?? value.selected_channel ?? value.value;
  return typeof picked === 'string' && picked !== '' ? picked : '_';
}
