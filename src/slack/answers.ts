/**
 * From a parsed request or button state to the message that answers it: calls the lookup
 * service and hands the views a finished model. The item answers are here, with what every
 * answer shares (failures as words, the working line); the contact answers are in
 * contactAnswers.ts, the catalogue index's in catalogueAnswers.ts.
 */
import { LRUCache } from 'lru-cache';
import { BadRequestError, type ErpEndpoint, isErpError, NotFoundError } from '../erp/errors.js';
import type { ErpRef, Item } from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';
import { BusyError, type Freshness, type ItemQuery, type LookupOptions } from '../lookup/types.js';
import type { InternalFiguresPolicy, SlackMembersApi } from '../privacy/access.js';
import type { SlackUsersApi } from '../privacy/revealPolicy.js';
import { branchesHoldingStock, stockVerdict } from '../rules/stock.js';
import type { CardPart, CardQuestion } from '../views/actions.js';
import type { HomeRecentRow } from '../views/appHome.js';
import { filtersNeedWordText } from '../views/catalogue.js';
import { errorMessage, noticeMessage, type RetryButton } from '../views/feedback.js';
import { type ItemCardModel, itemCard } from '../views/itemCard.js';
import type { SlackMessage } from '../views/message.js';
import { notFoundNotice } from '../views/notFound.js';
import { progressMessage, type WorkSubject } from '../views/progress.js';
import { itemSearchList } from '../views/searchLists.js';
import { whichBranch } from '../views/whichBranch.js';
import { looksLikeItemCode } from '../words/codeShape.js';
import { singular } from '../words/vocabulary.js';
import { type AskedOfCode, askedSuggestions, indexedSearchAnswer } from './catalogueAnswers.js';
import type { DeliveryDeps, ItemDeps } from './deps.js';
import type { Actor } from './payloads.js';

export interface ItemCardRequest {
  ref: ErpRef;
  path?: readonly string[];
  pathPages?: readonly number[];
  branchView?: 'best' | 'all';
  branchPage?: number;
  bomPage?: number;
  /** The bill of materials or the kits, shown in place of the branch lines. */
  part?: CardPart;
  refresh?: boolean;
  shared?: boolean;
  /** What `/stock CODE [N] [branch]` asked: the card answers it first. */
  question?: CardQuestion;
  /** The thread the card was opened from: its Share posts there. */
  threadTs?: string;
  /** "price of WIDGET-9": the sell price is the card's first line. */
  priceFirst?: boolean;
}

/** Branches "Which branch?" offers, besides "Company-wide". */
const WHICH_BRANCH_CHOICES = 5;

/** What the item answers use. */
type ItemAnswerDeps = ItemDeps & Pick<DeliveryDeps, 'display' | 'now'>;

/**
 * Whether a card may carry internal figures (an item's cost, a contact's account terms) for
 * the person it is drawn for; without a policy, nobody sees them. Whether a shared card shows
 * them as well is the views' call (SHARE_COST, SHARE_ACCOUNT_TERMS).
 */
export function internalFiguresFor(
  policy: InternalFiguresPolicy | undefined,
  actor: Actor,
  client: SlackMembersApi,
): Promise<boolean> {
  const viewer = { userId: actor.userId, teamId: actor.userTeamId };
  return policy?.internalFigures(viewer, client) ?? Promise.resolve(false);
}

export const lookupOptions = (actor: Actor, refresh = false): LookupOptions => ({
  requester: actor.userId,
  refresh,
});

/**
 * A code in any case as the ERP spells it, when the catalogue index knows it (`widget-9` is
 * WIDGET-9): before any ERP call, so the cache answers and no 404 is spent on the case.
 */
export function knownItemCode(deps: Pick<ItemDeps, 'catalogue'>, code: string): string {
  return deps.catalogue?.known(code)?.code ?? code;
}

/**
 * The code the ERP knows for a code typed in another case, when the index does not know it
 * yet: one search, its top row's code when it equals the typed one ignoring case.
 */
export async function codeBySearch(
  deps: Pick<ItemDeps, 'lookup'>,
  typed: string,
  actor: Pick<Actor, 'userId'>,
): Promise<string | undefined> {
  const fetched = await deps.lookup.searchItems({ words: [typed] }, 0, {
    requester: actor.userId,
  });
  const top = exactRow(fetched.data.rows, typed);
  return top?.code !== typed ? top?.code : undefined;
}

/**
 * Runs `build`; any error becomes the user-facing error message and one log line. With
 * `retry`, an error that may pass (ERP down, busy) carries "Try again" asking the same again.
 */
export async function safely(
  logger: AppLogger,
  what: string,
  build: () => Promise<SlackMessage>,
  retry?: RetryButton,
): Promise<SlackMessage> {
  try {
    return await build();
  } catch (error) {
    logFailure(logger, what, error);
    return errorMessage(error, retry === undefined ? {} : { retry });
  }
}

/** One log line for a failed answer, at the level its audience calls for. */
export function logFailure(logger: AppLogger, what: string, error: unknown): void {
  if (isErpError(error)) {
    const level =
      error.audience === 'admin' ? 'error' : error.audience === 'user' ? 'info' : 'warn';
    logger[level]({ erp: error.toLogObject() }, `${what} failed`);
    return;
  }
  if (error instanceof BusyError) {
    logger.info({ err: { type: error.name, message: error.message } }, `${what}: busy`);
    return;
  }
  logger.error({ err: error }, `${what} failed unexpectedly`);
}

export async function itemCardAnswer(
  deps: ItemAnswerDeps,
  request: ItemCardRequest,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  // The index's row, looked up once: the code as the ERP spells it, and its sell price.
  const indexed = 'code' in request.ref ? deps.catalogue?.known(request.ref.code) : undefined;
  const ref = indexed ? { code: indexed.code } : request.ref;
  const [fetched, internalFigures, searchedPrice] = await Promise.all([
    deps.lookup.getItem(ref, lookupOptions(actor, request.refresh)),
    internalFiguresFor(deps.internal, actor, client),
    // Beside getItem, never after it: the card waits for no more than one ERP round trip.
    // Only for what has a code's shape: `/stock widget` tries getItem before its search,
    // and a word is no code to price.
    'code' in ref && looksLikeItemCode(ref.code.toUpperCase()) && indexed?.price === undefined
      ? deps.sellPrice?.(ref.code)
      : undefined,
  ]);
  const item = fetched.data;
  deps.recent?.record(actor.userId, item.code);
  const shared = request.shared ?? false;
  // An id, or a code the index did not know as typed: its row by the ERP's spelling.
  const price = (indexed ?? deps.catalogue?.known(item.code))?.price ?? searchedPrice;
  const verdict = request.question === undefined ? undefined : stockVerdict(item, request.question);
  // A quantity at a place the item has no branch for: ask which, never answer company-wide.
  if (
    verdict?.quantity !== undefined &&
    verdict.branch === undefined &&
    verdict.unknownWords.length > 0
  ) {
    return whichBranch({
      ...deps.display,
      item,
      quantity: verdict.quantity,
      unknownWords: verdict.unknownWords,
      candidates: branchesHoldingStock(item, WHICH_BRANCH_CHOICES),
      freshness: fetched.freshness,
      ...(request.threadTs === undefined ? {} : { threadTs: request.threadTs }),
    });
  }
  // A No asked (not a Refresh, a share or a plan's option): one more count of unmet demand.
  if (
    verdict !== undefined &&
    verdict.quantity !== undefined &&
    !verdict.canSupply &&
    !shared &&
    request.refresh !== true &&
    request.question?.option === undefined
  ) {
    deps.demand?.noAnswered(item.code, verdict.branch);
  }
  return drawnItemCard({
    ...deps.display,
    internalFigures,
    item,
    verdict,
    ...(price === undefined ? {} : { price }),
    ...(request.priceFirst ? { priceFirst: true } : {}),
    part: request.part,
    freshness: fetched.freshness,
    now: deps.now(),
    path: request.path,
    pathPages: request.pathPages,
    branchView: request.branchView,
    branchPage: request.branchPage,
    bomPage: request.bomPage,
    shared,
    question: request.question,
    threadTs: request.threadTs,
    channelId: actor.channelId,
  });
}

/** What every page of search results is drawn from besides its rows' extras. */
export function pageModel<Query, Page>(
  deps: Pick<DeliveryDeps, 'display' | 'now'>,
  query: Query,
  fetched: { data: Page; freshness: Freshness },
) {
  return {
    ...deps.display,
    query,
    page: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
  };
}

/**
 * What answers instead when a search finds nothing: a command's text read as the sentence it
 * is, decided by the command's own search rather than by a second one.
 */
export type IfNothingFound = () => Promise<SlackMessage>;

/** A page of item search results, from the app's index when it can answer faithfully. */
export async function itemSearchAnswer(
  deps: ItemAnswerDeps,
  query: ItemQuery,
  offset: number,
  actor: Actor,
  asked?: AskedOfCode,
  ifNothingFound?: IfNothingFound,
): Promise<SlackMessage> {
  const indexed = indexedSearchAnswer(deps, query, offset, asked);
  // `blue widgets` finds nothing where "Blue Steel Widget" is: the plural words once singular.
  const singular = singularQuery(query);
  if (indexed) {
    if (indexed.found === 0 && singular) {
      return itemSearchAnswer(deps, singular, offset, actor, asked, ifNothingFound);
    }
    return ifNothingFound && indexed.found === 0 ? ifNothingFound() : indexed.message;
  }
  // Filters alone, which the index could not answer: an ERP known to need a word is not asked
  // (no call for a refusal); one not known yet is, and its refusal says what to add.
  const filtersOnly = query.words.length === 0 && (query.category ?? query.supplier) !== undefined;
  const needWord = () =>
    noticeMessage(
      filtersNeedWordText({
        ...query,
        indexFilling: deps.catalogue !== undefined && !deps.catalogue.isComplete(),
      }),
    );
  if (filtersOnly && deps.catalogue?.searchesWithoutWords() === false) return needWord();
  const fetched = await deps.lookup
    .searchItems(query, offset, lookupOptions(actor))
    .catch((error: unknown) => {
      if (filtersOnly && error instanceof BadRequestError) return undefined;
      throw error;
    });
  if (fetched === undefined) return needWord();
  if (fetched.data.rows.length === 0 && singular && offset === 0) {
    return itemSearchAnswer(deps, singular, offset, actor, asked, ifNothingFound);
  }
  if (ifNothingFound && fetched.data.rows.length === 0) return ifNothingFound();
  return itemSearchList({
    ...pageModel(deps, query, fetched),
    ...askedSuggestions(deps, asked, fetched.data.rows),
  });
}

/** The query with its plural words singular (`widgets` -> `widget`), or undefined for none. */
function singularQuery(query: ItemQuery): ItemQuery | undefined {
  const words = query.words.map((word) => (/\p{Ll}s$/u.test(word) ? singular(word) : word));
  return words.some((word, i) => word !== query.words[i]) ? { ...query, words } : undefined;
}

/** What a lookup by code carries: the reference, and the token as typed (for the search). */
export interface ByCode {
  ref: ErpRef;
  token: string;
}

/** Whether a not-found lookup has nothing to search for: an id, or no token. */
const nothingToSearch = (request: ByCode) => 'id' in request.ref || request.token === '';

/** The search's top row, when its code equals the token ignoring case: the code as meant. */
function exactRow<Row extends { code: string }>(rows: readonly Row[], token: string) {
  const top = rows[0];
  return top && top.code.toLowerCase() === token.toLowerCase() ? top : undefined;
}

/**
 * `/stock CODE` and `/contact CODE`: the card; on 404 a search for the code, opening the top
 * result when its code equals the token ignoring case, else the matches as a list. An id
 * (`id:123`, `#123`) that does not exist is said plainly: there is nothing to search.
 */
export async function byCodeAnswer<Found extends { data: { rows: readonly { code: string }[] } }>(
  request: ByCode,
  noun: 'item' | 'contact',
  steps: {
    card: (ref: ErpRef) => Promise<SlackMessage>;
    search: () => Promise<Found>;
    list: (found: Found) => SlackMessage | Promise<SlackMessage>;
  },
): Promise<SlackMessage> {
  try {
    return await steps.card(request.ref);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    if (nothingToSearch(request)) return noticeMessage(notFoundNotice({ noun, ref: request.ref }));
    const found = await steps.search();
    const top = exactRow(found.data.rows, request.token);
    return top ? steps.card({ code: top.code }) : steps.list(found);
  }
}

/** `/stock CODE`, read as a search for the code when no item has it. */
export function itemByCodeAnswer(
  deps: ItemAnswerDeps,
  request: ByCode,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const query: ItemQuery = { words: [request.token] };
  return byCodeAnswer(request, 'item', {
    card: (ref) => itemCardAnswer(deps, { ref }, actor, client),
    search: () => deps.lookup.searchItems(query, 0, lookupOptions(actor)),
    // The view says "not found" only when nothing matched, and then offers the known codes
    // nearest to it.
    list: (fetched) =>
      itemSearchList({
        ...pageModel(deps, query, fetched),
        fromCode: true,
        suggestions:
          fetched.data.rows.length === 0 ? deps.catalogue?.nearestCodes(request.token) : undefined,
      }),
  });
}

/**
 * App Home's recent lookups: each code with what the lookup cache holds of it now. A peek,
 * never an ERP call: Home is drawn on every visit and must not spend the budget. The code
 * recorded is the ERP's, and the cache holds every answer under it too (an item fetched by
 * id, or by a code typed in another case), here or on the replica that fetched it.
 */
export async function homeRecentRows(
  deps: Pick<ItemDeps, 'lookup' | 'recent'>,
  userId: string,
): Promise<HomeRecentRow[]> {
  const codes = (await deps.recent?.list(userId)) ?? [];
  return codes.map((code) => {
    const cached = deps.lookup.peekItem?.({ code });
    if (cached === undefined) return { code };
    const { description, available } = cached.data;
    return { code, cached: { description, available, fetchedAt: cached.freshness.fetchedAt } };
  });
}

/** The one short "working on it" line: why (queued, and behind whose lookups, or a slow ERP). */
export function workingLine(
  deps: Pick<ItemDeps, 'lookup'>,
  subject: WorkSubject,
  endpoint: ErpEndpoint,
  actor: Actor,
): SlackMessage {
  const { waitMs, ownAhead } = deps.lookup.queuePosition(endpoint, actor.userId);
  return progressMessage(
    subject,
    waitMs > 0 ? { kind: 'queued', waitMs, ownAhead } : { kind: 'slow' },
  );
}

export function isKnownToBeSlow(
  deps: Pick<ItemDeps, 'lookup'> & Pick<DeliveryDeps, 'timing'>,
  endpoint: ErpEndpoint,
  actor: Actor,
): boolean {
  return deps.lookup.queuePosition(endpoint, actor.userId).waitMs > deps.timing.workingAfterMs;
}

/**
 * Item cards already drawn. A cached lookup hands back the same `item` object until the item
 * is fetched again, so a popular item's card is drawn once per state, not once per request
 * (drawing showed in the profile of a cached /stock). The views stay pure functions; this
 * only remembers their answers.
 *
 * Bounded by count: the views' budgets (itemParts.ts) cap a card's size, so a count bounds
 * the memory too. An entry is used only for the very `item` object it was drawn from: a new
 * fetch is always drawn afresh.
 */
const drawn = new LRUCache<string, { item: Item; card: SlackMessage }>({ max: 256 });

export function drawnItemCard(model: ItemCardModel): SlackMessage {
  const key = cardKey(model);
  const known = drawn.get(key);
  if (known?.item === model.item) return known.card;
  const card = itemCard(model);
  drawn.set(key, { item: model.item, card });
  return card;
}

/**
 * Everything a card depends on besides the item object (the model's `now` is not shown).
 * Typed over the model's keys: a new field must be added here too, or this fails to compile.
 * Joined with spaces, not JSON.stringify (which cost more than the rest of a cached answer):
 * the only free text, codes on the drill-down path, comes last, as JSON.
 */
function cardKey(model: ItemCardModel): string {
  const { freshness } = model;
  const parts: Record<Exclude<keyof ItemCardModel, 'item' | 'now'>, string | number | boolean> = {
    freshness: `${freshness.fetchedAt.getTime()}.${freshness.fromCache}.${freshness.stale}.${freshness.staleBecause}`,
    sandbox: model.sandbox === true,
    shareCost: model.shareCost === true,
    shareAccountTerms: model.shareAccountTerms === true,
    // Never serve a member's card, with its cost, to anyone else.
    internalFigures: model.internalFigures === true,
    branchView: model.branchView ?? 'best',
    branchPage: model.branchPage ?? 0,
    bomPage: model.bomPage ?? 0,
    part: model.part ?? '',
    price: model.price ?? '',
    priceFirst: model.priceFirst === true,
    // Worked out from the item and the question, both already in the key.
    verdict: '',
    shared: model.shared === true,
    question: model.question
      ? `${model.question.quantity ?? ''}/${model.question.option ?? ''}/${(model.question.branchWords ?? []).join(' ')}`
      : '',
    threadTs: model.threadTs ?? '',
    channelId: model.channelId ?? '',
    pathPages: model.pathPages?.join(',') ?? '',
    path: model.path && model.path.length > 0 ? JSON.stringify(model.path) : '',
  };
  return `${model.item.code} ${Object.values(parts).join(' ')}`;
}
