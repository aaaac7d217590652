/**
 * Sentences and the commands' own grammar, both ways: a request read from a sentence answered
 * as the command it stands for (its text parsed by the command's parser, answered by the
 * command's code, passed in as `answer`), and a `/stock` or `/contact` text that the grammar
 * does not read (`/stock do we have 50 widget-9 in perth?`) answered as the sentence it is.
 */
import { type ItemQuery, SEARCH_PAGE_SIZE } from '../../lookup/types.js';
import type { SlackUsersApi } from '../../privacy/revealPolicy.js';
import {
  commandNoticeText,
  commandProblemText,
  noticeMessage,
  withNotices,
} from '../../views/feedback.js';
import { contactHelp, stockHelp, watchesNotReadyText } from '../../views/help.js';
import type { SlackMessage } from '../../views/message.js';
import { notSureMessage, watchProposal } from '../../views/words.js';
import { looksLikeItemCode } from '../../words/codeShape.js';
import { commandFor, type Reading, type WordsRequest } from '../../words/reading.js';
import {
  type ContactAnswerDeps,
  contactCardAnswer,
  contactSearchAnswer,
} from '../contactAnswers.js';
import type { DeliveryDeps, ItemDeps, WatchDeps, WordsDeps } from '../deps.js';
import {
  type ContactLookup,
  parseContactCommand,
  parseStockCommand,
  type StockLookup,
} from '../parser.js';
import type { Actor } from '../payloads.js';
import { readWords, wordsIndexOf } from './read.js';

/** `/stock` as it would answer the text the request stands for. */
export async function stockRequestAnswer(
  deps: Pick<DeliveryDeps, 'examples'>,
  request: Extract<WordsRequest, { kind: 'item' | 'codes' | 'build' }>,
  answer: (lookup: StockLookup) => Promise<SlackMessage>,
): Promise<SlackMessage> {
  const parsed = parseStockCommand(commandFor(request)?.text ?? '');
  if (!parsed.ok) return withNotices(stockHelp(deps.examples), [commandProblemText(parsed.error)]);
  if (parsed.request.kind === 'help') return stockHelp(deps.examples);
  return withNotices(await answer(parsed.request), parsed.notices.map(commandNoticeText));
}

/**
 * `/contact` as it would answer; an account named by words with people words (`who's the
 * purchasing officer at acme industrial`) has no one command text: the account's search, and
 * its card with only the matching people when it finds one account.
 */
export async function contactRequestAnswer(
  deps: ContactAnswerDeps & Pick<DeliveryDeps, 'examples'>,
  request: Extract<WordsRequest, { kind: 'contact' }>,
  actor: Actor,
  client: SlackUsersApi,
  answer: (lookup: ContactLookup) => Promise<SlackMessage>,
): Promise<SlackMessage> {
  const command = commandFor(request);
  if (command === undefined && 'words' in request.account) {
    const query = { words: [...request.account.words] };
    const found = await deps.lookup.searchContacts(query, 0, { requester: actor.userId });
    const [only, ...others] = found.data.rows;
    if (only !== undefined && others.length === 0 && !found.data.hasNext) {
      const ref = { code: only.code };
      return contactCardAnswer(deps, { ref, peopleWords: request.peopleWords }, actor, client);
    }
    return contactSearchAnswer(deps, query, 0, actor);
  }
  const parsed = parseContactCommand(command?.text ?? '');
  if (!parsed.ok)
    return withNotices(contactHelp(deps.examples), [commandProblemText(parsed.error)]);
  if (parsed.request.kind === 'help') return contactHelp(deps.examples);
  return answer(parsed.request);
}

/** A sentence read from a `/stock` text, answered privately as `/stock` answers. */
export function stockReadingAnswer(
  deps: Pick<DeliveryDeps, 'examples'> & WatchDeps,
  reading: Reading,
  answer: (lookup: StockLookup) => Promise<SlackMessage>,
): Promise<SlackMessage> {
  if (reading.kind === 'not_sure') return Promise.resolve(notSureMessage(reading));
  if (reading.kind !== 'request') return Promise.resolve(noticeMessage(''));
  const { request } = reading;
  if (request.kind === 'watch') {
    return Promise.resolve(
      deps.watches ? watchProposal(request) : noticeMessage(watchesNotReadyText('watch')),
    );
  }
  if (request.kind !== 'item' && request.kind !== 'codes' && request.kind !== 'build')
    return Promise.resolve(noticeMessage(''));
  return stockRequestAnswer(deps, request, answer);
}

/**
 * A reading to answer instead of the grammar: now, or only when the grammar's own search (the
 * one its answer runs anyway) finds nothing.
 */
export type SentenceReading<T> = { now: T } | { ifNothingFound: T };

const namesCode = (reading: Reading) =>
  reading.kind === 'request' && ['item', 'codes', 'watch', 'build'].includes(reading.request.kind);

/**
 * The sentence a `/stock` text is, when the grammar does not read it: a question whose
 * "code" is an ordinary word (`do we have 50 widget-9 …`, `alert me when …`) and the sentence
 * names an item, several "codes" one of which is a plain number or word (`50 x WIDGET-9 …`)
 * where the sentence asks about one item, or a plain search that finds nothing while the
 * sentence names items (the search's own answer decides; a question's fallback search is
 * asked first, before its getItem). Undefined: the grammar's answer stands.
 */
export async function stockSentenceInstead(
  deps: Pick<ItemDeps, 'catalogue' | 'lookup'> & WordsDeps,
  text: string,
  request: StockLookup,
  actor: Actor,
): Promise<SentenceReading<Reading> | undefined> {
  if (request.kind === 'codes') {
    // `50 x WIDGET-9 in perth` read as the codes `50` and `WIDGET-9`: a number is no code.
    const odd = request.codes.some(
      (code) => !looksLikeItemCode(code) && wordsIndexOf(deps).knownCode(code) === undefined,
    );
    if (!odd) return undefined;
    const reading = readWords(deps, text);
    return reading.kind === 'request' && reading.request.kind === 'item'
      ? { now: reading }
      : undefined;
  }
  if (request.kind !== 'question' && request.kind !== 'search') return undefined;
  if (request.kind === 'search') {
    const { query } = request;
    const filtered = query.category !== undefined || query.supplier !== undefined;
    if (filtered || request.supplierName !== undefined) return undefined;
  }
  // A question names an item when its code has an item code's shape (which settles most of
  // them without building the words index) or the index knows it.
  if (
    request.kind === 'question' &&
    (looksLikeItemCode(request.code) || wordsIndexOf(deps).knownCode(request.code) !== undefined)
  ) {
    return undefined;
  }
  const reading = readWords(deps, text);
  if (namesCode(reading)) return { now: reading };
  if (reading.kind !== 'not_sure') return undefined;
  if (request.kind === 'search') return { ifNothingFound: reading };
  return (await itemSearchFindsNothing(deps, request.fallback, actor))
    ? { now: reading }
    : undefined;
}

/** The search the grammar would run: from the index when it can, else the (cached) ERP's. */
async function itemSearchFindsNothing(
  deps: Pick<ItemDeps, 'catalogue' | 'lookup'>,
  query: ItemQuery,
  actor: Actor,
): Promise<boolean> {
  const indexed = deps.catalogue?.searchPage(query, 0, SEARCH_PAGE_SIZE);
  if (indexed) return indexed.page.rows.length === 0;
  const fetched = await deps.lookup.searchItems(query, 0, { requester: actor.userId });
  return fetched.data.rows.length === 0;
}

/**
 * The sentence a `/contact` text is (`/contact who does accounts at ACME01`), when it reads as
 * a contact question and the grammar's own search finds nothing.
 */
export function contactSentenceInstead(
  deps: Pick<ItemDeps, 'catalogue'> & WordsDeps,
  text: string,
  request: ContactLookup,
): SentenceReading<Extract<WordsRequest, { kind: 'contact' }>> | undefined {
  if (request.kind !== 'search' || request.query.type !== undefined) return undefined;
  const reading = readWords(deps, text);
  if (reading.kind !== 'request' || reading.request.kind !== 'contact') return undefined;
  return { ifNothingFound: reading.request };
}
