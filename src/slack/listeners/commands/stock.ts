import type { ErpEndpoint } from '../../../erp/errors.js';
import type { ItemQuery } from '../../../lookup/types.js';
import type { SlackUsersApi } from '../../../privacy/revealPolicy.js';
import {
  DEMAND_DAYS_SHOWN,
  DEMAND_ROWS,
  demandMessage,
  demandOffText,
} from '../../../views/demand.js';
import { noticeMessage, withNotices } from '../../../views/feedback.js';
import { stockHelp, watchesNotReadyText } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import type { WorkSubject } from '../../../views/progress.js';
import {
  type IfNothingFound,
  itemByCodeAnswer,
  itemCardAnswer,
  itemSearchAnswer,
} from '../../answers.js';
import { buildAnswer, type Later } from '../../buildAnswer.js';
import { categoriesAnswer, supplierFilter, suppliersAnswer } from '../../catalogueAnswers.js';
import { codesAnswer, MAX_CODES } from '../../codesAnswer.js';
import type { DeliveryDeps, ItemDeps, WatchDeps, WordsDeps } from '../../deps.js';
import {
  type ItemQuestion,
  parseStockCommand,
  type StockLookup,
  type StockRequest,
} from '../../parser.js';
import type { Actor } from '../../payloads.js';
import { stockReadingAnswer, stockSentenceInstead } from '../../words/asCommand.js';
import { qualifiedPhraseAnswer, questionItem } from '../../words/phrase.js';
import { type LookupCommand, lookupCommand, sentenceInstead } from './lookupCommand.js';
import { watchAnswer } from './watch.js';

/**
 * `/stock …`: help, an item card (with the search fallback), a card answering a question
 * (`CODE 50 perth`), several codes, a search list, or the categories.
 */
export function stockCommand(deps: DeliveryDeps & ItemDeps & WatchDeps & WordsDeps) {
  return lookupCommand(deps, stockCommandSpec(deps));
}

/** What `/stock` reads and answers, for the command and for its "Try again". */
export function stockCommandSpec(
  deps: DeliveryDeps & ItemDeps & WatchDeps & WordsDeps,
): LookupCommand<StockRequest> {
  return {
    family: 'stock',
    parse: parseStockCommand,
    help: stockHelp,
    endpoint: endpointOf,
    subject: subjectOf,
    // `/stock do we have 50 widget-9 in perth?`: a sentence the grammar does not read.
    sentence: async (text, request, actor, client) =>
      sentenceInstead(await stockSentenceInstead(deps, text, request, actor), (reading) =>
        stockReadingAnswer(deps, reading, (lookup) => stockAnswer(deps, lookup, actor, client)),
      ),
    answer: (request, actor, client, ifNothingFound, later) =>
      stockAnswer(deps, request, actor, client, ifNothingFound, later),
  };
}

/** The endpoint whose queue the working line reports. */
function endpointOf(request: StockLookup): ErpEndpoint {
  switch (request.kind) {
    case 'item':
    case 'question':
    case 'codes':
    case 'watch':
    case 'build':
      return 'getItem';
    // The lists come from the app's own index: no ERP call to wait for.
    default:
      return 'searchItems';
  }
}

function subjectOf(request: StockLookup): WorkSubject {
  switch (request.kind) {
    case 'item':
      return { kind: 'record', noun: 'item', ref: request.ref };
    case 'question':
    case 'watch':
    case 'build':
      return { kind: 'record', noun: 'item', ref: { code: request.code } };
    case 'codes':
      return { kind: 'codes', count: Math.min(request.codes.length, MAX_CODES) };
    default:
      return { kind: 'search', noun: 'item' };
  }
}

export function stockAnswer(
  deps: DeliveryDeps & ItemDeps & WatchDeps,
  request: StockLookup,
  actor: Actor,
  client: SlackUsersApi,
  ifNothingFound?: IfNothingFound,
  later?: Later,
): Promise<SlackMessage> {
  switch (request.kind) {
    case 'item':
      return itemByCodeAnswer(deps, request, actor, client);
    case 'question':
      return questionAnswer(deps, request, actor, client);
    case 'codes':
      return codesAnswer(deps, request.codes, actor, 'command', undefined, request.question);
    case 'search':
      return request.supplierName === undefined
        ? itemSearchAnswer(deps, request.query, 0, actor, undefined, ifNothingFound)
        : supplierSearchAnswer(deps, request.query, request.supplierName, actor);
    case 'categories':
      return categoriesAnswer(deps);
    case 'suppliers':
      return suppliersAnswer(deps);
    case 'build':
      return buildAnswer(deps, request, actor, later);
    case 'demand':
      return demandAnswer(deps);
    case 'watch':
    case 'watches':
    case 'unwatch':
    case 'digest':
      if (deps.watches) return watchAnswer(deps, deps.watches, request, actor);
      return Promise.resolve(noticeMessage(watchesNotReadyText(request.kind)));
  }
}

/** `/stock demand`: the No answers of the last seven days, where watches live. */
async function demandAnswer(deps: WatchDeps): Promise<SlackMessage> {
  if (!deps.watches?.demand.available) return noticeMessage(demandOffText);
  return demandMessage(await deps.watches.demand.recent(DEMAND_DAYS_SHOWN, DEMAND_ROWS));
}

/** `supplier:WORD`: resolved to the supplier's id; never dropped silently when it is not. */
async function supplierSearchAnswer(
  deps: DeliveryDeps & ItemDeps & WatchDeps,
  query: ItemQuery,
  supplierName: string,
  actor: Actor,
): Promise<SlackMessage> {
  const supplier = supplierFilter(deps, supplierName);
  if (!supplier.ok) return supplier.message;
  const answer = await itemSearchAnswer(deps, { ...query, supplier: supplier.id }, 0, actor);
  return withNotices(answer, [supplier.notice]);
}

/**
 * `/stock CODE [N] [branch words]`: one getItem (the code as the index knows it, or in
 * capitals); the card answers the question first. Words naming no branch of the item may be
 * part of its name (`widget-9 bracket`). When CODE is not an item, the words are the search
 * they always were.
 */
async function questionAnswer(
  deps: DeliveryDeps & ItemDeps & WatchDeps,
  request: ItemQuestion,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const question = {
    ...(request.quantity === undefined ? {} : { quantity: request.quantity }),
    branchWords: request.branchWords,
  };
  const item = await questionItem(deps, request, actor);
  if (item === undefined) {
    return itemSearchAnswer(deps, request.fallback, 0, actor, { code: request.code, question });
  }
  if (request.branchWords.length > 0) {
    const phrased = await qualifiedPhraseAnswer(deps, request, item, actor, client);
    if (phrased) return phrased;
  }
  // The same read again: answered by the cache.
  return itemCardAnswer(deps, { ref: { code: item.code }, question }, actor, client);
}
