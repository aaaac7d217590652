import { NotFoundError } from '../../../erp/errors.js';
import type { Item } from '../../../erp/schemas.js';
import type { Freshness } from '../../../lookup/types.js';
import { noticeMessage } from '../../../views/feedback.js';
import { stockHelp, supplierNameUnknownText, watchesNotReadyText } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import { shortcutResults } from '../../../views/shortcut.js';
import { ITEM_SURFACE, searchAnswer } from '../../answers.js';
import { categoriesAnswer } from '../../catalogueAnswers.js';
import type { ListenerDeps } from '../../deps.js';
import { drawnItemCard } from '../../drawnCards.js';
import { type ItemQuestion, parseStockCommand, type StockRequest } from '../../parser.js';
import type { Actor } from '../../payloads.js';
import { lookupCommand, surfaceSpec } from './lookupCommand.js';

const items = surfaceSpec(ITEM_SURFACE);
/** `/stock A, B, …` looks up as many codes as the message shortcut does. */
const MAX_CODES = 5;

type Lookup = Exclude<StockRequest, { kind: 'help' }>;

/** `/stock …`: help, a card (with a verdict when asked), a search list, several codes, lists. */
export const stockCommand = lookupCommand<StockRequest>({
  name: '/stock',
  family: 'stock',
  parse: parseStockCommand,
  help: stockHelp,
  endpoint: (request) => {
    switch (request.kind) {
      case 'item':
      case 'search':
        return items.endpoint(request);
      // The lists come from the app's own index: no ERP call to wait for.
      case 'categories':
      case 'suppliers':
        return 'searchItems';
      default:
        return 'getItem';
    }
  },
  describe: (request) => {
    switch (request.kind) {
      case 'item':
      case 'search':
        return items.describe(request);
      case 'codes':
        return { kind: 'codes', count: Math.min(request.codes.length, MAX_CODES) };
      case 'question':
        return { kind: 'record', noun: 'item', ref: { code: request.code } };
      default:
        return { kind: 'search', noun: 'item' };
    }
  },
  answer: (deps, request, actor, client) => {
    switch (request.kind) {
      case 'search':
        // Never drop a filter silently: until names resolve to ids, say so.
        if (request.supplierName !== undefined) {
          return Promise.resolve(noticeMessage(supplierNameUnknownText(request.supplierName)));
        }
        return items.answer(deps, request, actor, client);
      case 'item':
        return items.answer(deps, request, actor, client);
      case 'categories':
        return categoriesAnswer(deps);
      case 'question':
        return questionAnswer(deps, request, actor);
      case 'codes':
        return codesAnswer(deps, request.codes, actor);
      default:
        return Promise.resolve(notYet(request));
    }
  },
});

/** Lists and watches another part of the app answers; until it is wired, a plain notice. */
function notYet(
  request: Exclude<Lookup, { kind: 'item' | 'search' | 'question' | 'codes' | 'categories' }>,
): SlackMessage {
  return noticeMessage(watchesNotReadyText(request.kind));
}

/**
 * `/stock CODE [N] [branch words]`: one getItem; the card answers the question first. When
 * CODE is not an item, the words are the search they always were.
 */
export async function questionAnswer(
  deps: ListenerDeps,
  request: ItemQuestion,
  actor: Actor,
): Promise<SlackMessage> {
  try {
    const fetched = await deps.lookup.getItem({ code: request.code }, { requester: actor.userId });
    deps.recent?.record(actor.userId, fetched.data.code);
    return drawnItemCard({
      ...deps.display,
      item: fetched.data,
      freshness: fetched.freshness,
      now: deps.now(),
      question: {
        ...(request.quantity === undefined ? {} : { quantity: request.quantity }),
        branchWords: request.branchWords,
      },
    });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return searchAnswer(ITEM_SURFACE, deps, request.fallback, 0, actor);
  }
}

/** `/stock A, B, …`: the message shortcut's one line a code; codes past the fifth are named. */
export async function codesAnswer(
  deps: ListenerDeps,
  codes: readonly string[],
  actor: Actor,
): Promise<SlackMessage> {
  const asked = codes.slice(0, MAX_CODES);
  const found: Array<{ item: Item; freshness: Freshness }> = [];
  const notFound: string[] = [];
  const failed: Array<{ code: string; error: unknown }> = [];
  const results = await Promise.allSettled(
    asked.map((code) => deps.lookup.getItem({ code }, { requester: actor.userId })),
  );
  results.forEach((result, index) => {
    const code = asked[index] ?? '';
    if (result.status === 'fulfilled') {
      found.push({ item: result.value.data, freshness: result.value.freshness });
    } else if (result.reason instanceof NotFoundError) notFound.push(code);
    else failed.push({ code, error: result.reason });
  });
  return shortcutResults({
    ...deps.display,
    found,
    notFound,
    failed,
    notLookedUp: codes.slice(MAX_CODES),
    source: 'command',
    now: deps.now(),
  });
}
