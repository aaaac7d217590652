/**
 * The console's view of the conversation: every message the app showed, in order, with its
 * buttons, and the `response_url`s handed out. It is the fake Slack's sink: replies, shares,
 * replacements and deletions land here and are drawn on the screen as they arrive.
 */
import type { PostArgs, RespondPayload, ShownMessage, SlackSink } from './fakeSlack.js';
import { CONSOLE } from './identity.js';
import { ModalDesk } from './modal.js';
import { type ConsoleButton, renderMessage } from './render.js';
import { createStyler } from './style.js';

export interface BoardMessage extends ShownMessage {
  ts: string;
  ephemeral: boolean;
  buttons: ConsoleButton[];
  deleted: boolean;
}

interface BoardOptions {
  write: (text: string) => void;
  color: boolean;
  /** Print each message's exact `{ text, blocks }` JSON instead of drawing it. */
  json: boolean;
  /** Terminal columns, read at each drawing so a resized window is followed. */
  width?: number | (() => number);
  /** Where remarks about the conversation go (deleted messages, Slack refusals); `write` by default. */
  writeNote?: (text: string) => void;
}

interface ResponseUrl {
  /** The message whose button was pressed; none for a slash command. */
  sourceTs: string | undefined;
  uses: number;
}

// Slack: a response_url works up to 5 times (within 30 minutes).
const RESPONSE_URL_USES = 5;

export class Board implements SlackSink {
  private readonly messages: BoardMessage[] = [];
  private readonly responseUrls = new Map<string, ResponseUrl>();
  private tsCounter = 0;
  private keyCounter = 0;
  /** Increases with every message drawn; lets a caller ask "did anything arrive since…?" */
  shownCount = 0;

  /** The modal the app opened, if any (filled in and submitted from the session). */
  readonly modals: ModalDesk;

  constructor(private readonly options: BoardOptions) {
    this.modals = new ModalDesk({ write: options.write, color: options.color });
  }

  modal(view: Record<string, unknown>): void {
    this.modals.show(view);
    this.shownCount += 1;
  }

  newResponseUrlKey(sourceTs?: string): string {
    this.keyCounter += 1;
    const key = `r${this.keyCounter}`;
    this.responseUrls.set(key, { sourceTs, uses: 0 });
    return key;
  }

  lastMessage(): BoardMessage | undefined {
    return this.messages.findLast((message) => !message.deleted);
  }

  /** Numbers press the buttons of the latest message that has any. */
  lastWithButtons(): BoardMessage | undefined {
    return this.messages.findLast((message) => !message.deleted && message.buttons.length > 0);
  }

  /** An ack body: a string is a text reply; an object is a message (ephemeral by default). */
  showAck(body: unknown, parse: (value: unknown) => RespondPayload | undefined): void {
    if (body === undefined || body === '') return;
    const payload = typeof body === 'string' ? { text: body } : parse(body);
    if (!payload) {
      this.note('the app acknowledged with a body the console could not read');
      return;
    }
    if (payload.text === undefined && payload.blocks === undefined) return;
    this.add(payload, payload.response_type !== 'in_channel');
  }

  respond(key: string, payload: RespondPayload): ReturnType<SlackSink['respond']> {
    const url = this.responseUrls.get(key);
    if (!url) return { ok: false, status: 404, error: 'invalid_url' };
    url.uses += 1;
    if (url.uses > RESPONSE_URL_USES) {
      this.note(
        `the app used one response_url more than ${RESPONSE_URL_USES} times; Slack refuses that`,
      );
      return { ok: false, status: 404, error: 'used_url' };
    }
    const source = url.sourceTs === undefined ? undefined : this.find(url.sourceTs);
    const hasContent = payload.text !== undefined || payload.blocks !== undefined;
    if (payload.delete_original) {
      if (source) this.markDeleted(source);
      else this.note('delete_original is not supported for slash commands; Slack ignores it');
      if (!hasContent) return { ok: true };
    }
    if (!hasContent) return { ok: false, status: 400, error: 'no_text' };
    if (payload.replace_original && source && !source.deleted) {
      // A message's visibility never changes, even when replaced.
      this.replace(source, payload);
      return { ok: true };
    }
    this.add(payload, payload.response_type !== 'in_channel');
    return { ok: true };
  }

  post(args: PostArgs, ephemeral: boolean): { ts: string } {
    const forSomeoneElse = ephemeral && args.user !== undefined && args.user !== CONSOLE.userId;
    if (forSomeoneElse) this.note(`the next message is only visible to ${args.user}`);
    return { ts: this.add(args, ephemeral).ts };
  }

  update(args: PostArgs): boolean {
    const message = args.ts === undefined ? undefined : this.find(args.ts);
    if (!message || message.deleted) return false;
    this.replace(message, args);
    return true;
  }

  remove(_channel: string, ts: string): boolean {
    const message = this.find(ts);
    if (!message || message.deleted) return false;
    this.markDeleted(message);
    return true;
  }

  note(text: string): void {
    const styler = createStyler(this.options.color);
    (this.options.writeNote ?? this.options.write)(`${styler.dim(`(${text})`)}\n`);
  }

  private find(ts: string): BoardMessage | undefined {
    return this.messages.find((message) => message.ts === ts);
  }

  private nextTs(): string {
    this.tsCounter += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(this.tsCounter).padStart(6, '0')}`;
  }

  private add(content: { text?: string; blocks?: unknown[] }, ephemeral: boolean): BoardMessage {
    const message: BoardMessage = {
      ts: this.nextTs(),
      text: content.text ?? '',
      blocks: content.blocks ?? [],
      ephemeral,
      buttons: [],
      deleted: false,
    };
    this.messages.push(message);
    this.draw(message, ephemeral ? 'only visible to you' : 'shared to channel');
    return message;
  }

  private replace(message: BoardMessage, content: { text?: string; blocks?: unknown[] }): void {
    message.text = content.text ?? '';
    message.blocks = content.blocks ?? [];
    const where = message.ephemeral ? 'only visible to you' : 'shared to channel';
    this.draw(message, `message updated · ${where}`);
  }

  private markDeleted(message: BoardMessage): void {
    message.deleted = true;
    const firstLine = message.text.split('\n')[0]?.slice(0, 60) ?? '';
    this.note(`message deleted${firstLine ? `: ${firstLine}` : ''}`);
  }

  private draw(message: BoardMessage, label: string): void {
    const { width } = this.options;
    const rendered = renderMessage(message, {
      color: this.options.color,
      ...(width === undefined ? {} : { width: typeof width === 'function' ? width() : width }),
    });
    message.buttons = rendered.buttons;
    this.shownCount += 1;
    if (this.options.json) {
      const exact = { text: message.text, blocks: message.blocks };
      this.options.write(`${JSON.stringify(exact, null, 2)}\n`);
      return;
    }
    const styler = createStyler(this.options.color);
    this.options.write(`\n${styler.label(`── ${label} ──`)}\n${rendered.text}\n`);
  }
}
