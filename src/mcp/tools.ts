/**
 * The four read-only tools, answered by the commands' own code: the lookup service (with the
 * asker's budget, fair share and cache), the verdict rules, the catalogue index, the contact
 * card and the watch service. A tool call is one more request of its person: the access
 * lists (a call has no channel, so a channel list refuses it, as it refuses the workflow
 * step), the budget and the fair queue treat it as they treat that person's command.
 *
 * Each answer is the text (views/tools.ts: what a shared message may show, whoever asks) and
 * the card's blocks in their shared form, the form a channel sees (no cost unless SHARE_COST,
 * no reach, Reveal checked per presser).
 */
import type { KnownBlock } from '@slack/types';
import { resolveSupplierName } from '../catalogue/suppliers.js';
import { NotFoundError } from '../erp/errors.js';
import type { Item } from '../erp/schemas.js';
import type { Fetched, ItemQuery } from '../lookup/types.js';
import { accessRefusal } from '../privacy/access.js';
import type { SlackUsersApi } from '../privacy/revealPolicy.js';
import { matchingPeople } from '../rules/people.js';
import { fold, stockVerdict } from '../rules/stock.js';
import {
  codeBySearch,
  itemCardAnswer,
  knownItemCode,
  logFailure,
  lookupOptions,
  pageModel,
} from '../slack/answers.js';
import { indexedSearchAnswer } from '../slack/catalogueAnswers.js';
import { contactCardAnswer } from '../slack/contactAnswers.js';
import type { ListenerDeps } from '../slack/deps.js';
import type { Actor } from '../slack/payloads.js';
import { errorToUserMessage } from '../views/feedback.js';
import { showsAccountTerms } from '../views/format.js';
import { watchesNotReadyText } from '../views/help.js';
import { itemSearchList } from '../views/searchLists.js';
import {
  accountsToolText,
  contactToolText,
  filterProblemToolText,
  itemsToolText,
  stockToolText,
  unknownBranchToolText,
  unknownItemToolText,
  watchesToolText,
} from '../views/tools.js';
import { watchList } from '../views/watchList.js';

/** What a tool answers: its text, the card's blocks where there is a card, and whether it failed. */
export interface ToolAnswer {
  text: string;
  blocks?: KnownBlock[];
  isError?: boolean;
}

export type ToolDeps = ListenerDeps;

/** Rows `find_items` lists: what fits a Slackbot answer and a language model's attention. */
const MAX_ITEMS = 10;

const refusal = (text: string): ToolAnswer => ({ text, isError: true });

/** Any failure becomes the one user-facing sentence for it, and one log line. */
async function answered(
  deps: ToolDeps,
  tool: string,
  build: () => Promise<ToolAnswer>,
): Promise<ToolAnswer> {
  try {
    return await build();
  } catch (error) {
    logFailure(deps.logger, `tool ${tool}`, error);
    return { text: errorToUserMessage(error), isError: true };
  }
}

export interface CheckStockArgs {
  code: string;
  quantity?: number | undefined;
  branch?: string | undefined;
}

/** The item by code, in any case as the ERP spells it (as `/stock CODE N branch` finds it). */
async function itemByCode(
  deps: ToolDeps,
  code: string,
  actor: Actor,
): Promise<Fetched<Item> | undefined> {
  try {
    return await deps.lookup.getItem({ code: knownItemCode(deps, code) }, lookupOptions(actor));
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const spelled = /\p{Ll}/u.test(code) ? await codeBySearch(deps, code, actor) : undefined;
  return spelled === undefined
    ? undefined
    : deps.lookup.getItem({ code: spelled }, lookupOptions(actor));
}

export function checkStock(
  deps: ToolDeps,
  args: CheckStockArgs,
  actor: Actor,
  client: SlackUsersApi,
): Promise<ToolAnswer> {
  const refused = accessRefusal(deps, 'stock', actor, 'tool');
  if (refused !== undefined) return Promise.resolve(refusal(refused));
  return answered(deps, 'check_stock', async () => {
    const fetched = await itemByCode(deps, args.code, actor);
    if (fetched === undefined) {
      return refusal(unknownItemToolText(args.code, deps.catalogue?.nearestCodes(args.code)));
    }
    const item = fetched.data;
    const branchWords = (args.branch ?? '').split(/\s+/).filter(Boolean);
    const question = {
      ...(args.quantity === undefined ? {} : { quantity: args.quantity }),
      branchWords,
    };
    const verdict = stockVerdict(item, question);
    // A branch the item does not have is said, never answered company-wide.
    if (
      branchWords.length > 0 &&
      (verdict.branch === undefined || verdict.unknownWords.length > 0)
    ) {
      const names = item.branches.map((b) => b.name);
      return refusal(unknownBranchToolText(item.code, args.branch ?? '', names));
    }
    const price = deps.catalogue?.known(item.code)?.price;
    // The card as a channel would see it: the same code as `/stock`, answered by the cache.
    const card = await itemCardAnswer(
      deps,
      { ref: { code: item.code }, question, shared: true },
      actor,
      client,
    );
    return {
      text: stockToolText({
        verdict,
        freshness: fetched.freshness,
        now: deps.now(),
        price,
        display: deps.display,
      }),
      blocks: card.blocks,
    };
  });
}

export interface FindItemsArgs {
  words: string;
  category?: string | undefined;
  supplier?: string | undefined;
}

type Filter = { ok: true; id: number | undefined; note?: string } | { ok: false; text: string };

/** A category by id or by the name the catalogue index knows it by. */
function categoryFilter(deps: ToolDeps, typed: string | undefined): Filter {
  if (typed === undefined || typed.trim() === '') return { ok: true, id: undefined };
  if (/^\d{1,9}$/.test(typed.trim())) return { ok: true, id: Number(typed.trim()) };
  const known = (deps.catalogue?.categories() ?? []).filter(
    (c): c is typeof c & { id: number } => c.id !== undefined,
  );
  const wanted = fold(typed.trim());
  const exact = known.filter((c) => fold(c.name) === wanted);
  const found = exact.length > 0 ? exact : known.filter((c) => fold(c.name).startsWith(wanted));
  const [only, ...others] = found;
  if (only !== undefined && others.length === 0) {
    return { ok: true, id: only.id, note: `Category: ${only.name} (id ${only.id}).` };
  }
  const candidates = (found.length > 0 ? found : known).map((c) => c.name);
  return { ok: false, text: filterProblemToolText('category', typed, candidates) };
}

/** A supplier by id or by name, resolved as `supplier:WORD` is for `/stock`. */
function supplierFilterOf(deps: ToolDeps, typed: string | undefined): Filter {
  if (typed === undefined || typed.trim() === '') return { ok: true, id: undefined };
  if (/^\d{1,9}$/.test(typed.trim())) return { ok: true, id: Number(typed.trim()) };
  const resolved = resolveSupplierName(deps.catalogue?.suppliers() ?? [], typed);
  switch (resolved.kind) {
    case 'found':
      return { ok: true, id: resolved.id, note: `Supplier: ${resolved.name} (id ${resolved.id}).` };
    case 'ambiguous':
      return {
        ok: false,
        text: filterProblemToolText(
          'supplier',
          typed,
          resolved.matches.map((m) => m.name),
        ),
      };
    case 'unknown':
      return {
        ok: false,
        text: filterProblemToolText(
          'supplier',
          typed,
          resolved.close.map((m) => m.name),
        ),
      };
  }
}

export function findItems(deps: ToolDeps, args: FindItemsArgs, actor: Actor): Promise<ToolAnswer> {
  const refused = accessRefusal(deps, 'stock', actor, 'tool');
  if (refused !== undefined) return Promise.resolve(refusal(refused));
  return answered(deps, 'find_items', async () => {
    const category = categoryFilter(deps, args.category);
    if (!category.ok) return refusal(category.text);
    const supplier = supplierFilterOf(deps, args.supplier);
    if (!supplier.ok) return refusal(supplier.text);
    const words = args.words.split(/\s+/).filter(Boolean);
    const query: ItemQuery = {
      words,
      ...(category.id === undefined ? {} : { category: category.id }),
      ...(supplier.id === undefined ? {} : { supplier: supplier.id }),
    };
    const notes = [category.note, supplier.note].filter((n): n is string => n !== undefined);
    // The index answers when it can answer faithfully, as it does for `/stock words`.
    const indexed = deps.catalogue?.searchPage(query, 0, MAX_ITEMS);
    if (indexed) {
      const freshness = {
        fetchedAt: new Date(indexed.oldestSeenAt),
        fromCache: true,
        stale: false,
      };
      const rows = indexed.page.rows.slice(0, MAX_ITEMS);
      return {
        text: itemsToolText({
          words,
          rows,
          more: indexed.page.hasNext,
          freshness,
          now: deps.now(),
          fromIndex: true,
          display: deps.display,
          notes,
        }),
        blocks: indexedSearchAnswer(deps, query, 0)?.message.blocks,
      };
    }
    const fetched = await deps.lookup.searchItems(query, 0, lookupOptions(actor));
    const rows = fetched.data.rows.slice(0, MAX_ITEMS);
    return {
      text: itemsToolText({
        words,
        rows,
        more: fetched.data.hasNext || fetched.data.rows.length > MAX_ITEMS,
        freshness: fetched.freshness,
        now: deps.now(),
        fromIndex: false,
        display: deps.display,
        notes,
      }),
      blocks: itemSearchList(pageModel(deps, query, fetched)).blocks,
    };
  });
}

export interface FindContactArgs {
  account: string;
  role?: string | undefined;
}

export function findContact(
  deps: ToolDeps,
  args: FindContactArgs,
  actor: Actor,
  client: SlackUsersApi,
): Promise<ToolAnswer> {
  const refused = accessRefusal(deps, 'contact', actor, 'tool');
  if (refused !== undefined) return Promise.resolve(refusal(refused));
  return answered(deps, 'find_contact', async () => {
    const options = lookupOptions(actor);
    const words = args.account.split(/\s+/).filter(Boolean);
    const roleWords = (args.role ?? '').split(/\s+/).filter(Boolean);
    let code: string | undefined;
    if (words.length === 1 && words[0] !== undefined) {
      // One word: a code first (a miss is remembered by the cache), as `/contact CODE` reads it.
      try {
        code = (await deps.lookup.getContact({ code: words[0] }, options)).data.code;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    if (code === undefined) {
      const found = await deps.lookup.searchContacts({ words }, 0, options);
      const rows = found.data.rows;
      const exact = rows.find((r) => r.code.toLowerCase() === args.account.trim().toLowerCase());
      const only = rows.length === 1 && !found.data.hasNext ? rows[0] : undefined;
      code = (exact ?? only)?.code;
      if (code === undefined) {
        return {
          text: accountsToolText(args.account, rows.slice(0, MAX_ITEMS), found.data.hasNext),
        };
      }
    }
    const fetched = await deps.lookup.getContact({ code }, options);
    const contact = fetched.data;
    // The card as a channel would see it (reach redacted; Reveal checked per presser).
    const card = await contactCardAnswer(
      deps,
      { ref: { code }, shared: true, ...(roleWords.length > 0 ? { peopleWords: roleWords } : {}) },
      actor,
      client,
    );
    return {
      text: contactToolText({
        contact,
        freshness: fetched.freshness,
        now: deps.now(),
        roleWords,
        people: matchingPeople(contact.addressbook, roleWords),
        showStopCredit: showsAccountTerms(true, deps.display ?? {}),
        display: deps.display,
      }),
      blocks: card.blocks,
    };
  });
}

export function listWatches(deps: ToolDeps, actor: Actor): Promise<ToolAnswer> {
  const refused = accessRefusal(deps, 'stock', actor, 'tool');
  if (refused !== undefined) return Promise.resolve(refusal(refused));
  return answered(deps, 'list_watches', async () => {
    if (!deps.watches) return refusal(watchesNotReadyText('watches'));
    const mine = await deps.watches.service.listMine(actor.userId);
    return {
      text: watchesToolText(mine.watches),
      blocks: watchList({ ...mine, scope: 'mine', now: deps.now() }).blocks,
    };
  });
}
