/**
 * Every word of "asking in words": the question back when the reader is not sure, the short
 * reply to what it cannot read (with two examples), the watch proposal and its "Set watch"
 * button, the account-only contact card a channel may see, and the assistant panel's prompts,
 * status and title. Views draw; the reader (src/words/) and the answers decide.
 */
import type { Button, KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { Contact } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import { ACTION, actionId } from './actions.js';
import {
  actions,
  context,
  header,
  plain,
  REFERENCE_HEADER,
  section,
  stripBidiControls,
} from './blocks.js';
import {
  codeSpan,
  escapeTruncated,
  formatQty,
  freshnessLine,
  oneLine,
  oneLineAtWord,
  statusLabel,
} from './format.js';
import type { HelpExamples } from './help.js';
import type { SlackMessage } from './message.js';
import { askButton } from './searchLists.js';

/**
 * An item offered when the reader is not sure which one is meant. The reader (src/words/)
 * makes these and the reasons below: they are named here, where they become words.
 */
export interface Candidate {
  code: string;
  description: string;
}

/** Why a sentence got no answer. */
export type NotUnderstoodReason =
  /** Nothing but spaces or markup. */
  | 'empty'
  /** `hi`, `thanks!`. */
  | 'greeting'
  /** Words the reader cannot place. */
  | 'unreadable'
  /** `stock`, `how many do we have?`: no item named. */
  | 'which_item'
  /** Item words the catalogue index matches nothing with (`words` holds them). */
  | 'no_item'
  /** A contact question without an account (`who does accounts?`). */
  | 'which_account'
  /** Two different quantities for one item. */
  | 'two_quantities'
  /** `tell me when WIDGET-9 runs low`: a watch needs a number. */
  | 'watch_threshold';

/** The action id of "Set watch" on a proposal. */
export const SET_WATCH_ACTION = 'words_set_watch';

/** What "Set watch" carries: the watch asked for, nothing else (the channel is the click's). */
export const WatchProposalState = z
  .object({
    v: z.literal(1),
    c: z.string().min(1).max(100),
    d: z.enum(['below', 'above']),
    n: z.number().int().min(0).max(1_000_000_000),
    b: z.array(z.string().min(1).max(40)).max(5).optional(),
    /** 1: one-shot ("Tell me when it's Yes" on a No verdict): removed after its first alert. */
    o: z.literal(1).optional(),
  })
  .strict();
export type WatchProposalState = z.infer<typeof WatchProposalState>;

/**
 * The sentences the help, the examples and the assistant's prompts teach, with the ERP's own
 * codes when known.
 */
function taught(examples?: HelpExamples) {
  const code = examples?.itemCodes[0] ?? 'WIDGET-9';
  const account = examples?.contactCodes[0] ?? 'ACME01';
  return {
    code,
    quantity: `have we got 50 ${code} in perth?`,
    people: `who does accounts at ${account}`,
    watch: `tell me when ${code} drops below 20 in perth`,
  };
}

/** Example sentences, with the ERP's own codes when known. */
function exampleSentences(examples?: HelpExamples): [string, string] {
  const { quantity, people } = taught(examples);
  return [quantity, `${people}?`];
}

const quote = (text: string) => `“${escapeTruncated(text, 80)}”`;

/** Not sure which item: up to three buttons, each answering the rest of the question. */
export function notSureMessage(model: {
  reason: 'several_items' | 'near_codes';
  typed: string;
  candidates: readonly Candidate[];
  total?: number;
  quantity?: number;
  branchWords: readonly string[];
}): SlackMessage {
  const question = {
    ...(model.quantity === undefined ? {} : { quantity: model.quantity }),
    branchWords: model.branchWords,
  };
  const lead =
    model.reason === 'near_codes'
      ? `I don't know the item ${codeSpan(model.typed, 40)}. Did you mean one of these?`
      : `Several items match ${quote(model.typed)}${model.total ? ` (${formatQty(model.total)})` : ''}. Which one?`;
  const lines = model.candidates.map(
    (c) => `${codeSpan(c.code, 40)}${c.description ? ` ${oneLineAtWord(c.description, 80)}` : ''}`,
  );
  const buttons = model.candidates.map((c, i) =>
    askButton(c.code, actionId(ACTION.itemView, 200 + i), question),
  );
  const more =
    model.total && model.total > model.candidates.length
      ? context(`Or search with \`/stock ${escapeTruncated(model.typed, 60)}\` to see them all.`)
      : undefined;
  const blocks: Array<KnownBlock | undefined> = [
    section([lead, ...lines].join('\n')),
    actions(buttons),
    more,
  ];
  return {
    // The fallback is mrkdwn as the blocks are (notifications, screen readers): escaped alike.
    text:
      model.reason === 'near_codes'
        ? `Did you mean ${model.candidates.map((c) => oneLine(c.code, 40)).join(' or ')}?`
        : `Several items match ${oneLine(model.typed, 80)}: which one?`,
    blocks: blocks.filter((b): b is KnownBlock => b !== undefined),
  };
}

const NOT_UNDERSTOOD: Readonly<Record<NotUnderstoodReason, string>> = {
  empty: 'Ask me about stock or a contact in a sentence.',
  greeting: 'Hello! Ask me about stock or a contact in a sentence.',
  unreadable: 'I could not read that as a question about stock or a contact.',
  which_item: 'Which item? Name it by its code or a few words of its description.',
  no_item: 'No item I know matches',
  which_account: 'Which account? Name it by its code or its company name.',
  two_quantities: 'I read two different quantities there. Ask for one quantity at a time.',
  watch_threshold: 'To watch an item I need a number: "below 20" or "above 5".',
};

/** A short reply with two examples: nothing was looked up. */
export function notUnderstoodMessage(
  reason: NotUnderstoodReason,
  words: readonly string[] | undefined,
  examples?: HelpExamples,
): SlackMessage {
  // Escaped once: `quote` escapes the typed words, our own sentences hold no markup.
  const said =
    reason === 'no_item'
      ? `${NOT_UNDERSTOOD.no_item} ${quote((words ?? []).join(' '))}.`
      : NOT_UNDERSTOOD[reason];
  const [first, second] = exampleSentences(examples);
  const tryThese = `For example: _${escapeTruncated(first, 100)}_ or _${escapeTruncated(second, 100)}_ (\`help\` for more).`;
  return {
    text: `${said} ${tryThese}`.replace(/_/g, ''),
    blocks: [section(said), context(tryThese)],
  };
}

/** What asking in words understands, with examples. */
export function wordsHelp(examples?: HelpExamples): SlackMessage {
  const { code, quantity, people, watch } = taught(examples);
  const rows = [
    [quantity, 'a yes or no for 50 at Perth, then the card'],
    [`how many ${code.toLowerCase()} in syd`, 'the card with Sydney first'],
    ['blue widgets', 'the items that match, to pick from'],
    [`can we build 10 ${code}?`, 'whether 10 can be built from its components, and what is short'],
    [people, 'the account with only its people in accounts'],
    [watch, 'a watch, set when you press Set watch'],
  ];
  const lines = rows.map(([said, gets]) => `_${escapeTruncated(said ?? '', 100)}_: ${gets}`);
  return {
    text: 'Ask about stock or a contact in a sentence, as you would ask a colleague.',
    blocks: [
      header('Ask in words', REFERENCE_HEADER),
      section(
        [
          'Ask about stock or a contact in a sentence, as you would ask a colleague:',
          ...lines,
        ].join('\n'),
      ),
      context(
        'No language model: your sentence is read into the /stock or /contact command it stands for. `/stock help` and `/contact help` list every command.',
      ),
    ],
  };
}

/** "Set watch" for a watch asked in words: never made until pressed. */
export function watchProposal(model: {
  code: string;
  direction: 'below' | 'above';
  threshold: number;
  branchWords: readonly string[];
}): SlackMessage {
  const where =
    model.branchWords.length > 0
      ? ` at ${escapeTruncated(model.branchWords.join(' '), 60)}`
      : ' company-wide';
  const when =
    model.direction === 'below'
      ? `falls below ${formatQty(model.threshold)}`
      : model.threshold === 0
        ? 'is back in stock'
        : `rises to ${formatQty(model.threshold)} or more`;
  const sentence = `Watch ${codeSpan(model.code, 40)}${where}: tell this conversation when its available stock ${when}?`;
  const state: WatchProposalState = {
    v: 1,
    c: model.code,
    d: model.direction,
    n: model.threshold,
    ...(model.branchWords.length > 0
      ? { b: model.branchWords.slice(0, 5).map((w) => w.slice(0, 40)) }
      : {}),
  };
  const button: Button = {
    type: 'button',
    action_id: SET_WATCH_ACTION,
    text: plain('Set watch'),
    style: 'primary',
    value: JSON.stringify(state),
    accessibility_label: `Set a watch on ${model.code}`.slice(0, 75),
  };
  return {
    text: `Watch ${oneLine(model.code, 40)}${where.replace(/[`*_]/g, '')}? Press Set watch to start it.`,
    blocks: [section(sentence), { type: 'actions', elements: [button] }],
  };
}

/** A contact as a channel may see it: the account only, no people, phones, e-mails or terms. */
export function accountOnlyCard(model: {
  contact: Pick<Contact, 'code' | 'company' | 'account_type' | 'status_label'>;
  freshness: Freshness;
  sandbox?: boolean;
}): SlackMessage {
  const { contact } = model;
  const status = statusLabel(contact.status_label, 'Suspended') || '—';
  const line = [codeSpan(contact.code), oneLine(contact.account_type, 60), status]
    .filter(Boolean)
    .join(' · ');
  return {
    text: `${oneLine(contact.company || contact.code, 150)} (${oneLine(contact.code, 60)})`,
    blocks: [
      header(contact.company || contact.code),
      section(line),
      context(
        [
          'The people and how to reach them went to the asker privately.',
          freshnessLine(model.freshness),
          model.sandbox ? 'Sandbox data' : '',
        ]
          .filter(Boolean)
          .join(' · '),
      ),
    ],
  };
}

/** The assistant panel: up to four prompts for a new thread. */
export function suggestedPrompts(examples?: HelpExamples): {
  title: string;
  prompts: Array<{ title: string; message: string }>;
} {
  const { code, quantity, people, watch } = taught(examples);
  return {
    title: 'Ask about stock or a contact',
    prompts: [
      { title: 'Stock for a quantity', message: quantity },
      { title: "An item's stock", message: `how many ${code} in sydney` },
      { title: 'Who to call', message: people },
      { title: 'Tell me when it runs low', message: watch },
    ],
  };
}

/** The status line while an answer is worked out. */
export function workingStatus(subject: string | undefined): string {
  return subject === undefined ? 'Looking it up…' : `Looking up ${plainLine(subject, 60)}…`;
}

/** A thread's title: the question, on one line. */
export function threadTitle(sentence: string): string {
  return plainLine(sentence, 60) || 'A question';
}

/** Plain text (a status or title is not mrkdwn): one line, cut with an ellipsis. */
function plainLine(text: string, max: number): string {
  const line = stripBidiControls(text).replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** The private note beside an account-only card in a channel. */
export function privateCopyNote(): string {
  return 'Only you can see this full card. The thread shows the account only.';
}

/** In a channel's thread, when the answer could not be shown there: it went to the asker. */
export function sentPrivatelyNote(): string {
  return 'I sent the answer to you privately: contact details stay out of the channel.';
}
