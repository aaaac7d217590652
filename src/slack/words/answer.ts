/**
 * A sentence answered: read by src/words/ into the request a command would make, then answered
 * by the command's own code (same budget, fairness, cache and privacy). Where the answer goes
 * is the caller's; what may be shown where is decided here:
 * - in a private place (a direct message, the assistant panel, a command) the asker gets what
 *   the command gives;
 * - in a channel (a mention), the thread gets what a shared message may show: the item card
 *   redacted as shared, a contact's account only; the full contact card, anything for a guest
 *   or an external, and refusals go to the asker alone.
 */
import type { ContactQuery } from '../../lookup/types.js';
import { checkAccess } from '../../privacy/access.js';
import type { SlackUsersApi } from '../../privacy/revealPolicy.js';
import { commandNoticeText, commandProblemText } from '../../views/commandProblems.js';
import { noticeMessage } from '../../views/feedback.js';
import { contactHelp, stockHelp, watchesNotReadyText } from '../../views/help.js';
import type { SlackMessage } from '../../views/message.js';
import { withNotices } from '../../views/notices.js';
import {
  accountOnlyCard,
  notSureMessage,
  notUnderstoodMessage,
  privateCopyNote,
  sentPrivatelyNote,
  watchProposal,
  wordsHelp,
} from '../../views/words.js';
import { readSentence } from '../../words/reader.js';
import { commandFor, type Reading, type WordsRequest } from '../../words/reading.js';
import { contactCardAnswer, contactSearchAnswer, itemCardAnswer, safely } from '../answers.js';
import { codesAnswer } from '../codesAnswer.js';
import type { ListenerDeps } from '../deps.js';
import { sanitizeInput, stripSlackMarkup } from '../input.js';
import { contactAnswer } from '../listeners/commands/contact.js';
import { stockAnswer } from '../listeners/commands/stock.js';
import { parseContactCommand, parseStockCommand } from '../parser.js';
import type { Actor } from '../payloads.js';
import { accountOf, wordsIndexOf } from './account.js';

/** Where the answer is read: by the asker alone, or by everyone in a channel's thread. */
export type Place = 'private' | 'channel';

export interface WordsReply {
  /** Posted where the sentence was (in a channel: seen by everyone in the thread). */
  reply?: SlackMessage;
  /** Seen by the asker only (an ephemeral message in the thread). */
  askerOnly?: SlackMessage;
}

/** The longest sentence read: the reader reads no more. */
const MAX_SENTENCE = 400;

/** The sentence as a person typed it: markup (the app's own mention) resolved, cleaned. */
export function readWords(deps: Pick<ListenerDeps, 'catalogue' | 'words'>, text: string): Reading {
  const { text: clean } = sanitizeInput(stripSlackMarkup(text), MAX_SENTENCE);
  return readSentence(clean, wordsIndexOf(deps));
}

/** What the status line names while the answer is worked out (`WIDGET-9`). */
export function subjectOf(reading: Reading): string | undefined {
  if (reading.kind !== 'request') return undefined;
  const { request } = reading;
  switch (request.kind) {
    case 'item':
    case 'watch':
      return request.code;
    case 'codes':
      return request.codes.join(', ');
    case 'contact':
      return 'code' in request.account ? request.account.code : request.account.words.join(' ');
    case 'help':
      return undefined;
  }
}

/** The answer to a sentence already read; never rejects (errors become messages). */
export function answerReading(
  deps: ListenerDeps,
  reading: Reading,
  actor: Actor,
  client: SlackUsersApi,
  place: Place,
): Promise<WordsReply> {
  switch (reading.kind) {
    case 'not_understood':
      return Promise.resolve({
        reply: notUnderstoodMessage(reading.reason, reading.words, deps.examples),
      });
    case 'not_sure':
      return Promise.resolve({ reply: notSureMessage(reading) });
    case 'request':
      return answerRequest(deps, reading.request, actor, client, place);
  }
}

async function answerRequest(
  deps: ListenerDeps,
  request: WordsRequest,
  actor: Actor,
  client: SlackUsersApi,
  place: Place,
): Promise<WordsReply> {
  const mine = (message: SlackMessage): WordsReply =>
    place === 'channel' ? { askerOnly: message } : { reply: message };
  if (request.kind === 'help') return { reply: wordsHelp(deps.examples) };
  const family = request.kind === 'contact' ? 'contact' : 'stock';
  const access = checkAccess(
    deps.access[family],
    actor,
    family === 'stock' ? '/stock' : '/contact',
  );
  if (!access.allowed) {
    deps.logger.info(
      { user: actor.userId, channel: actor.channelId },
      'sentence refused by access rules',
    );
    return mine(noticeMessage(access.message));
  }
  if (request.kind === 'watch') {
    // Proposed to the asker: a watch is set only by their click.
    if (!deps.watches) return mine(noticeMessage(watchesNotReadyText('watch')));
    return mine(watchProposal(request));
  }
  const privateAnswer = () =>
    safely(deps.logger, 'words', () => commandAnswer(deps, request, actor, client));
  // A guest or an external gets what the command gives them, privately; so does everyone in
  // a private place.
  if (place === 'private' || !(await isFullMember(deps, actor, client))) {
    return mine(await privateAnswer());
  }
  if (request.kind === 'contact') {
    const full = await privateAnswer();
    // The same reads again: answered by the cache.
    const account = await accountOf(deps, request.account, actor).catch(() => undefined);
    return {
      reply: account
        ? accountOnlyCard({ ...account, sandbox: deps.display?.sandbox })
        : noticeMessage(sentPrivatelyNote()),
      askerOnly: withNotices(full, [privateCopyNote()]),
    };
  }
  return {
    reply: await safely(deps.logger, 'words', () =>
      channelItemAnswer(deps, request, actor, client),
    ),
  };
}

/** In a channel: the item card as a shared card (no cost); anything else as the command's. */
async function channelItemAnswer(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'item' | 'codes' }>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  if (request.kind === 'codes') return codesAnswer(deps, request.codes, actor, 'command');
  const question =
    request.quantity === undefined && request.branchWords.length === 0
      ? undefined
      : {
          ...(request.quantity === undefined ? {} : { quantity: request.quantity }),
          branchWords: request.branchWords,
        };
  try {
    return await itemCardAnswer(
      deps,
      { ref: { code: request.code }, ...(question ? { question } : {}), shared: true },
      actor,
      client,
    );
  } catch {
    // Not found (remembered by the cache, so no second call), a usage problem or a failure:
    // the command's own answer says it.
    return commandAnswer(deps, request, actor, client);
  }
}

/** The command's answer to the request, through the command's own grammar. */
export async function commandAnswer(
  deps: ListenerDeps,
  request: Exclude<WordsRequest, { kind: 'help' | 'watch' }>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const command = commandFor(request);
  if (command === undefined && request.kind === 'contact' && 'words' in request.account) {
    return accountWordsAnswer(deps, request.account.words, request.peopleWords, actor, client);
  }
  if (command?.command === '/contact') {
    const parsed = parseContactCommand(command.text);
    if (!parsed.ok)
      return withNotices(contactHelp(deps.examples), [commandProblemText(parsed.error)]);
    if (parsed.request.kind === 'help') return contactHelp(deps.examples);
    return contactAnswer(deps, parsed.request, actor, client);
  }
  const parsed = parseStockCommand(command?.text ?? '');
  if (!parsed.ok) return withNotices(stockHelp(deps.examples), [commandProblemText(parsed.error)]);
  if (parsed.request.kind === 'help') return stockHelp(deps.examples);
  const answer = await stockAnswer(deps, parsed.request, actor, client);
  return withNotices(answer, parsed.notices.map(commandNoticeText));
}

/**
 * `who's the purchasing officer at acme industrial`: the account found by its words, with
 * only the matching people; several accounts are listed. One search and one read, never more
 * than `/contact acme industrial purchasing officer` spends.
 */
async function accountWordsAnswer(
  deps: ListenerDeps,
  accountWords: readonly string[],
  peopleWords: readonly string[],
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const query: ContactQuery = { words: [...accountWords] };
  const found = await deps.lookup.searchContacts(query, 0, { requester: actor.userId });
  const [only, ...others] = found.data.rows;
  if (only !== undefined && others.length === 0 && !found.data.hasNext) {
    return contactCardAnswer(deps, { ref: { code: only.code }, peopleWords }, actor, client);
  }
  return contactSearchAnswer(deps, query, 0, actor);
}

/** A full member of the installing workspace (whom internal figures are drawn for). */
function isFullMember(
  deps: Pick<ListenerDeps, 'internal'>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<boolean> {
  const viewer = { userId: actor.userId, teamId: actor.userTeamId };
  return deps.internal?.internalFigures(viewer, client) ?? Promise.resolve(false);
}
