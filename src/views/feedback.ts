/**
 * Errors, "working on it" lines, notices and confirmations. `errorToUserMessage` is THE one
 * place where an error becomes words for a user: it says what happened and what to do, and
 * never shows internals (messages, status codes, bodies, URLs, stack traces). Below, what the
 * commands say about text they could not read as asked.
 */
import type { ActionsBlock, KnownBlock } from '@slack/types';
import {
  AuthError,
  BadRequestError,
  InvalidInputError,
  isErpError,
  NotFoundError,
  RateLimitedError,
  TenantError,
  UnavailableError,
  UnexpectedDataError,
} from '../erp/errors.js';
import {
  BusyError,
  type Freshness,
  InputError,
  type InputProblem,
  isTransient,
} from '../lookup/types.js';
import { ACTION, type ButtonState, VALUE_VERSION } from './actions.js';
import { actions, context, LIMITS, section, stateButton, truncate } from './blocks.js';
import { aboutSeconds, escapeTruncated, slackTimeAgo } from './format.js';
import type { SlackMessage } from './message.js';
import { type Progress, progressLine } from './progress.js';

const NOT_ANSWERING = 'The ERP is not answering; try again in a minute.';
const BUSY = 'Lots of lookups right now';
const RATE_LIMITED = 'The ERP is busy (too many requests)';
const UNEXPECTED_DATA = 'The ERP returned unexpected data; an admin has the details in the log.';
const MISCONFIGURED = 'The ERP connection is misconfigured; ask an admin.';

/** Requests refused before the ERP was called: said as ours, never as the ERP's. */
const INPUT_PROBLEMS: Record<InputProblem, string> = {
  empty_search: 'A search needs at least one word or filter: add a keyword.',
  bad_ref: 'That is not a code or id that can be looked up; check it and try again.',
  bad_offset: 'That page does not exist; search again.',
};

/**
 * Input the ERP client refused before sending anything (search words or a code it cannot
 * put in a URL): a problem with what was typed, never "the ERP refused".
 */
function invalidInputWords(error: InvalidInputError): string {
  const searching = error.endpoint === 'searchItems' || error.endpoint === 'searchContact';
  if (searching) {
    return 'Those search words contain characters that cannot be searched for; retype them and try again.';
  }
  return INPUT_PROBLEMS.bad_ref;
}

/** User words for any error, mrkdwn-safe (nothing from the error itself is echoed). */
export function errorToUserMessage(error: unknown): string {
  if (error instanceof InputError) return INPUT_PROBLEMS[error.problem];
  if (error instanceof InvalidInputError) return invalidInputWords(error);
  if (error instanceof BusyError) return `${BUSY}; try again in ${retryWait(error)}.`;
  if (!isErpError(error))
    return 'Something went wrong on our side; try again, and tell an admin if it keeps happening.';
  if (error instanceof NotFoundError) {
    if (error.endpoint === 'getItem') return 'No item has that code in the ERP.';
    if (error.endpoint === 'getContact') return 'No contact has that code in the ERP.';
    return 'Nothing in the ERP matches that.';
  }
  if (error instanceof BadRequestError) {
    return error.endpoint === 'searchItems' || error.endpoint === 'searchContact'
      ? 'The ERP needs at least one word to search for: add a keyword.'
      : 'The ERP refused that code; check it and try again.';
  }
  if (error instanceof AuthError || error instanceof TenantError) return MISCONFIGURED;
  if (error instanceof RateLimitedError)
    return `${RATE_LIMITED}; try again in ${retryWait(error)}.`;
  if (error instanceof UnexpectedDataError) return UNEXPECTED_DATA;
  if (error instanceof UnavailableError && error.reason === 'too_large') {
    return 'The ERP sent more data than we can read; an admin has the details in the log.';
  }
  // ServerError, UnavailableError and any ErpError subclass added later.
  return NOT_ANSWERING;
}

/** What "Try again" presses: an action id and the state it carries (the same question). */
export interface RetryButton {
  actionId: string;
  state: ButtonState;
}

/** "Try again" on a failed `/stock` or `/contact`: the same text asked again. */
export function commandRetry(family: 'stock' | 'contact', text: string): RetryButton {
  return {
    actionId: ACTION.commandRetry,
    state: { v: VALUE_VERSION, t: 'rc', f: family, x: text },
  };
}

/**
 * "Try again" on a contact asked by its account's words with people words (`who does accounts
 * at acme`), which no one `/contact` text says: the words as the sentence was read.
 */
export function contactWordsRetry(
  accountWords: readonly string[],
  peopleWords: readonly string[],
): RetryButton {
  return {
    actionId: ACTION.commandRetry,
    state: {
      v: VALUE_VERSION,
      t: 'rc',
      f: 'contact',
      w: { a: [...accountWords], p: [...peopleWords] },
    },
  };
}

/** When a later try of an error that may pass is likely to: "about 20 s", "a minute". */
function retryWait(error: unknown): string {
  if (error instanceof BusyError) return aboutSeconds(error.expectedWaitMs);
  if (error instanceof RateLimitedError && error.retryAfterMs !== undefined) {
    return aboutSeconds(error.retryAfterMs);
  }
  return 'a minute';
}

/**
 * An error that may pass, said for a surface with no Try again (a workflow run): what failed,
 * and when the same can be run again. Undefined for the others.
 */
export function passingFailure(error: unknown): { problem: string; wait: string } | undefined {
  if (!isTransient(error)) return undefined;
  const problem =
    error instanceof BusyError
      ? BUSY
      : error instanceof RateLimitedError
        ? RATE_LIMITED
        : 'The ERP is not answering';
  return { problem, wait: retryWait(error) };
}

/** "Try again" when one of the errors may pass; nothing without a retry or for the others. */
export function tryAgainRow(
  retry: RetryButton | undefined,
  errors: readonly unknown[],
): ActionsBlock | undefined {
  if (retry === undefined || !errors.some(isTransient)) return undefined;
  return actions([
    stateButton('Try again', retry.actionId, retry.state, {
      accessibilityLabel: 'Ask the same question again',
    }),
  ]);
}

interface ErrorContext {
  /** What the user asked for, e.g. `WIDGET-9` (user text: escaped here). */
  what?: string;
  /** The last good answer, when there is one, to say how old it would be. */
  stale?: Pick<Freshness, 'fetchedAt'>;
  now?: Date;
  /** The same question again, offered as "Try again" when the error may pass. */
  retry?: RetryButton;
}

export function errorMessage(error: unknown, errorContext: ErrorContext = {}): SlackMessage {
  const words = errorToUserMessage(error);
  const what = errorContext.what ? `*${escapeTruncated(errorContext.what, 100)}*: ` : '';
  const blocks: KnownBlock[] = [section(`:warning: ${what}${words}`)];
  const { stale } = errorContext;
  if (stale) {
    blocks.push(context(`The last data we have was fetched ${slackTimeAgo(stale.fetchedAt)}.`));
  }
  const again = tryAgainRow(errorContext.retry, [error]);
  if (again) blocks.push(again);
  const plainWhat = errorContext.what ? `${errorContext.what}: ` : '';
  return { text: escapeTruncated(`${plainWhat}${words}`, 500), blocks };
}

type WorkingReason = Progress;

/** ONE short line: "Looking up WIDGET-9: queued behind other lookups; I’ll post it here in about 20 s". */
export function workingMessage(what: string, reason: WorkingReason): SlackMessage {
  return progressLine(`Looking up ${what}`, reason);
}

/** A plain info or refusal line (access refused, unreadable input); the text is escaped. */
export function noticeMessage(text: string): SlackMessage {
  const escaped = escapeTruncated(text, 2000);
  return { text: escapeTruncated(text, LIMITS.fallbackText), blocks: [section(escaped)] };
}

const CHANNEL_ID = /^[CGD][A-Z0-9]{2,30}$/;

/** Replaces the user's ephemeral copy once the card is in the channel. */
export function shareConfirmation(channelId?: string): SlackMessage {
  const where = channelId && CHANNEL_ID.test(channelId) ? `<#${channelId}>` : 'the channel';
  return {
    text: `Shared to ${where}`,
    blocks: [context(`:white_check_mark: Shared to ${where}.`)],
  };
}

/** A notice is one short sentence; anything longer is cut, so a message stays in its limits. */
const MAX_NOTICE = 300;

/**
 * Puts short notices (e.g. "Your text was cut to 200 characters") above a message, as one
 * context block, without pushing it over the 50-block limit. Notices may quote what the user
 * typed, so they are escaped in the blocks and in the fallback text alike.
 */
export function withNotices(message: SlackMessage, notices: readonly string[]): SlackMessage {
  if (notices.length === 0) return message;
  const escaped = notices.map((notice) => escapeTruncated(notice, MAX_NOTICE));
  return {
    text: truncate(`${escaped.join(' ')}\n${message.text}`, LIMITS.fallbackText),
    blocks: [
      context(escaped.map((notice) => `:information_source: ${notice}`).join('\n')),
      ...message.blocks.slice(0, LIMITS.blocks - 1),
    ],
  };
}

/**
 * What `/stock` and `/contact` say about text they could not read as asked, and about how they
 * read it (cut, fewer words). The parser (src/slack/parser.ts) passes what went wrong and the
 * pieces (the key, what was typed, already quoted, a working example); the words are here.
 * Plain text: the views that show it escape it.
 */
export type CommandProblem =
  | { kind: 'hash_without_id'; command: string }
  | { kind: 'given_twice'; key: string; first: string; second: string; example: string }
  | { kind: 'id_not_alone'; command: string; id: number; sampleWord: string }
  | { kind: 'not_whole_number'; typed: string; what: string; example: string }
  | { kind: 'bad_contact_type'; typed: string; example: string }
  | { kind: 'markup_only'; command: string; sampleCode: string }
  | { kind: 'quantity_twice'; first: string; second: string; code: string }
  | { kind: 'quantity_not_positive'; typed: string; code: string }
  | { kind: 'watch_threshold'; code: string; direction: 'below' | 'above' }
  | { kind: 'watch_branch_missing'; code: string }
  | { kind: 'unwatch_code_missing' }
  | {
      kind: 'notify_refused';
      problem: 'broadcast' | 'not_mention' | 'empty' | 'too_many';
      typed: string;
    }
  | { kind: 'digest_usage'; problem: 'usage' | 'time' | 'zone'; typed: string };

export type CommandNotice =
  | { kind: 'text_cut'; maxLength: number }
  | { kind: 'words_limited'; maxWords: number }
  | { kind: 'words_cut'; maxWordLength: number };

export function commandProblemText(problem: CommandProblem): string {
  switch (problem.kind) {
    case 'hash_without_id':
      return `"#" needs an id number after it, for example ${problem.command} #123.`;
    case 'given_twice':
      return `${problem.key} is given twice (${problem.first} and ${problem.second}): keep one, for example ${problem.example}.`;
    case 'id_not_alone':
      return `An id lookup takes nothing else: use ${problem.command} id:${problem.id} on its own, or leave the id out to search, for example ${problem.command} ${problem.sampleWord}.`;
    case 'not_whole_number':
      return `${problem.typed} is not valid: ${problem.what} is a whole number (0 or more), for example ${problem.example}.`;
    case 'bad_contact_type':
      return `${problem.typed} is not valid: type is client (or customer) or supplier, for example ${problem.example}.`;
    case 'markup_only':
      return `Mentions, channels and e-mail links cannot be looked up: type a code or some words, for example ${problem.command} ${problem.sampleCode}.`;
    case 'quantity_twice':
      return `Two quantities (${problem.first} and ${problem.second}): ask for one, for example /stock ${problem.code} 50.`;
    case 'quantity_not_positive':
      return `${problem.typed} is not a quantity anyone can promise: ask for 1 or more, for example /stock ${problem.code} 50.`;
    case 'watch_threshold':
      return `A watch needs a whole number after "${problem.direction}", for example /stock watch ${problem.code} ${problem.direction} 20.`;
    case 'watch_branch_missing':
      return `"at" needs a branch name after it, for example /stock watch ${problem.code} below 20 at perth.`;
    case 'unwatch_code_missing':
      return 'Say which watch to remove, for example /stock unwatch WIDGET-9 (see /stock watches).';
    case 'notify_refused':
      return notifyProblemText(problem.problem, problem.typed);
    case 'digest_usage':
      return problem.problem === 'time'
        ? `"${problem.typed}" is not a time of day: use HH:MM, for example /stock digest on 08:00.`
        : problem.problem === 'zone'
          ? `"${problem.typed}" is not a time zone I know: use a name such as Australia/Perth or Europe/London, for example /stock digest on 08:00 Australia/Perth.`
          : 'The digest is /stock digest on [HH:MM [zone]] or /stock digest off, for example /stock digest on 08:00 Australia/Perth.';
  }
}

function notifyProblemText(
  problem: 'broadcast' | 'not_mention' | 'empty' | 'too_many',
  typed: string,
): string {
  switch (problem) {
    case 'broadcast':
      return 'An alert never mentions the whole channel: after notify, name people or a user group (pick them from the @ menu), for example /stock watch WIDGET-9 below 20 notify @purchasing.';
    case 'not_mention':
      return `"${typed}" is not a person or a user group: after notify, pick each from Slack's @ menu so it turns into a mention, for example /stock watch WIDGET-9 below 20 notify @purchasing.`;
    case 'empty':
      return 'notify needs people or a user group after it, for example /stock watch WIDGET-9 below 20 notify @purchasing.';
    case 'too_many':
      return 'An alert mentions at most 10 people or groups: use a user group for more.';
  }
}

export function commandNoticeText(notice: CommandNotice): string {
  switch (notice.kind) {
    case 'text_cut':
      return `Your text was cut to ${notice.maxLength} characters.`;
    case 'words_limited':
      return `Only the first ${notice.maxWords} words were used.`;
    case 'words_cut':
      return `Words longer than ${notice.maxWordLength} characters were cut to ${notice.maxWordLength}.`;
  }
}
