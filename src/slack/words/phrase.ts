/**
 * Words after a code that name no branch of the item: `/stock widget-9 bracket`, or a
 * sentence's "the widget-9 bracket" while the index cannot tell. They qualify the item, so the
 * whole phrase is what was asked: the code written out (WIDGET-9-BRACKET), else the phrase as
 * one search (from the index when complete, else one ERP search, the same the command's
 * fallback would spend). Never the shorter code's card as if that were asked: nothing found
 * is a question back naming the phrase, with the nearest codes.
 */
import { NotFoundError } from '../../erp/errors.js';
import type { Item } from '../../erp/schemas.js';
import { SEARCH_PAGE_SIZE } from '../../lookup/types.js';
import type { SlackUsersApi } from '../../privacy/revealPolicy.js';
import { matchBranch } from '../../rules/stock.js';
import type { SlackMessage } from '../../views/message.js';
import { notSureMessage } from '../../views/words.js';
import { MAX_CANDIDATES, type WordsRequest } from '../../words/reading.js';
import { namesEveryWord } from '../../words/wholeWords.js';
import {
  codeBySearch,
  itemCardAnswer,
  itemSearchAnswer,
  knownItemCode,
  lookupOptions,
} from '../answers.js';
import type { DeliveryDeps, ItemDeps } from '../deps.js';
import type { ItemQuestion } from '../parser.js';
import type { Actor } from '../payloads.js';

type PhraseDeps = ItemDeps & Pick<DeliveryDeps, 'display' | 'now'>;

/** What a question about one item asked: the command's, or a sentence's. */
type Asked = Pick<ItemQuestion, 'code' | 'quantity' | 'branchWords'>;

/**
 * A sentence's item in a channel, when words after its code name no branch or were left to
 * the command (`qualifiers`): answered as the command would, with the card shared (no cost).
 * Else the code as the ERP spells it, for the shared card of the item itself; undefined when
 * there were no such words, or no item has the code (the command's answer says so).
 */
export async function sharedPhraseAnswer(
  deps: PhraseDeps,
  request: Extract<WordsRequest, { kind: 'item' }>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<{ answer: SlackMessage } | { code: string } | undefined> {
  const branchWords = [...(request.qualifiers ?? []), ...request.branchWords];
  if (branchWords.length === 0) return undefined;
  const item = await questionItem(deps, request, actor);
  if (item === undefined) return undefined;
  const asked = { ...request, branchWords };
  const answer = await qualifiedPhraseAnswer(deps, asked, item, actor, client, true);
  return answer ? { answer } : { code: item.code };
}

/**
 * The answer when the question's branch words (some of them) name no branch of `item` and
 * are part of the item's name instead; undefined when every word names a branch, or when
 * the phrase finds nothing and the question has a quantity (the card's "Which branch?" asks).
 */
export async function qualifiedPhraseAnswer(
  deps: PhraseDeps,
  request: Asked,
  item: Item,
  actor: Actor,
  client: SlackUsersApi,
  shared = false,
): Promise<SlackMessage | undefined> {
  const { unknownWords } = matchBranch(item.branches, request.branchWords);
  if (unknownWords.length === 0) return undefined;
  const unknown = new Set(unknownWords);
  const question = {
    ...(request.quantity === undefined ? {} : { quantity: request.quantity }),
    branchWords: request.branchWords.filter((word) => !unknown.has(word)),
  };
  const words = [item.code, ...unknownWords];
  const written = deps.catalogue?.known([item.code, ...unknownWords].join('-'))?.code;
  const rows =
    written === undefined
      ? (await phraseRows(deps, words, actor)).filter((row) => namesEveryWord(row, unknownWords))
      : [{ code: written }];
  const others = rows.filter((row) => row.code !== item.code);
  const [only] = others;
  if (only !== undefined && others.length === 1) {
    return itemCardAnswer(deps, { ref: { code: only.code }, question, shared }, actor, client);
  }
  if (others.length > 1) return itemSearchAnswer(deps, { words }, 0, actor);
  // Only the item itself matches every word (`WIDGET-9 blue`): the words describe it.
  if (rows.length > 0) return undefined;
  if (request.quantity !== undefined) return undefined;
  return notSureMessage({
    reason: 'near_codes',
    typed: [request.code, ...unknownWords].join(' '),
    candidates: [{ code: item.code, description: item.description }, ...near(deps, item)],
    branchWords: question.branchWords,
  });
}

/** Besides the item, the index's items whose code starts with its code (`WIDGET-9-…`). */
function near(deps: PhraseDeps, item: Item): Array<{ code: string; description: string }> {
  const page = deps.catalogue?.searchPage({ words: [item.code] }, 0, SEARCH_PAGE_SIZE);
  return (page?.page.rows ?? [])
    .filter((row) => row.code !== item.code && row.code.startsWith(item.code))
    .slice(0, MAX_CANDIDATES - 1)
    .map((row) => ({ code: row.code, description: row.description }));
}

/** The phrase's matches: the index's when complete, else one ERP search (cached). */
async function phraseRows(
  deps: PhraseDeps,
  words: readonly string[],
  actor: Actor,
): Promise<ReadonlyArray<{ code: string; description: string }>> {
  const query = { words: [...words] };
  const indexed = deps.catalogue?.searchPage(query, 0, SEARCH_PAGE_SIZE);
  if (indexed) return indexed.page.rows;
  const fetched = await deps.lookup.searchItems(query, 0, lookupOptions(actor));
  return fetched.data.rows;
}

/**
 * The item a question names: the code as the index knows it; else, typed with lower-case
 * letters, the code upper-cased (getItem is exact-case and codes are written in capitals), then
 * one search for the code in any case. Undefined: no item has that code. A fresh start thus
 * costs one getItem for `/stock widget-9 50 perth`, not a 404, a search and a getItem.
 */
export async function questionItem(
  deps: PhraseDeps,
  request: Pick<Asked, 'code'>,
  actor: Actor,
): Promise<Item | undefined> {
  const known = knownItemCode(deps, request.code);
  const first = known === request.code && /\p{Ll}/u.test(known) ? known.toUpperCase() : known;
  const read = await itemOrNothing(deps, first, actor);
  if (read !== undefined || first === request.code) return read;
  // A code the ERP spells in lower case as typed is left to the fallback search's list.
  const code = await codeBySearch(deps, request.code, actor);
  return code === undefined || code === first ? undefined : itemOrNothing(deps, code, actor);
}

async function itemOrNothing(deps: PhraseDeps, code: string, actor: Actor) {
  try {
    return (await deps.lookup.getItem({ code }, lookupOptions(actor))).data;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
