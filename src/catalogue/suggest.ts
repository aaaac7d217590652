/**
 * Typeahead economy. Every keystroke is answered from the index at once; the ERP is asked
 * only when the index is incomplete, and then at most once for a run of keystrokes refining
 * one word, once that word has 3 characters: "wid" is searched, "widg" and "widget" are
 * covered by it (the ERP's AND-of-substrings means their matches are among "wid"'s). A new
 * word is covered too, unless the earlier search came back full (there may be more). Text
 * for which the index already fills the whole list costs nothing either.
 *
 * Per person: one typist may spend at most `TYPEAHEAD_SEARCHES_PER_MINUTE` upstream searches
 * a minute (new prefixes past that are answered from the index alone), so two people typing
 * cannot spend the search budget a third person's `/stock` search waits for.
 */
import { normaliseWords } from '../lookup/resources.js';
import type { ItemQuery, LookupService } from '../lookup/types.js';
import { editDistance } from './editDistance.js';
import type { CatalogueItem } from './records.js';
import { withoutAccents } from './search.js';
import type { CatalogueStore } from './store.js';

const MIN_UPSTREAM_WORD = 3;
/** A few searches a minute is a person typing three or four words; the index does the rest. */
export const TYPEAHEAD_SEARCHES_PER_MINUTE = 4;
const MINUTE_MS = 60_000;

interface SuggesterOptions {
  store: CatalogueStore;
  lookup: Pick<LookupService, 'searchItems'>;
  /** True when the index holds the whole catalogue, recently: no upstream search at all. */
  complete: () => boolean;
  /** How long a keystroke may wait for its upstream search before answering from the index. */
  waitMs: number;
  /** How long an upstream search covers its refinements (the cache lifetime). */
  coverMs: number;
  /** Upstream searches one person may start a minute. Default TYPEAHEAD_SEARCHES_PER_MINUTE. */
  perPersonPerMinute?: number;
  now?: () => number;
}

interface Searched {
  text: string;
  category: number | undefined;
  words: number;
  full: boolean;
  at: number;
}

const MAX_REMEMBERED = 500;

export class Suggester {
  private readonly searched: Searched[] = [];
  /** When each person's recent upstream searches started, within the last minute. */
  private readonly spent = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(private readonly options: SuggesterOptions) {
    this.now = options.now ?? Date.now;
  }

  async suggest(
    typed: string,
    options: { category?: number; requester?: string; limit: number },
  ): Promise<CatalogueItem[]> {
    const text = normaliseWords([typed]).join(' ');
    const categoryName =
      options.category === undefined
        ? undefined
        : this.options.store.categoryName(options.category);
    const local = () =>
      this.options.store.suggest(text, { category: categoryName, limit: options.limit });
    if (this.options.complete()) return local();
    const known = local();
    // The index covers this text when it is complete, or already fills the whole list.
    if (known.length >= options.limit || !this.needsUpstream(text, options.category)) return known;
    if (!this.spend(options.requester ?? '')) return known;
    const words = text.split(' ');
    const entry: Searched = {
      text,
      category: options.category,
      words: words.length,
      full: false,
      at: this.now(),
    };
    this.remember(entry);
    const query: ItemQuery = {
      words,
      ...(options.category === undefined ? {} : { category: options.category }),
    };
    const search = this.options.lookup
      .searchItems(query, 0, { requester: options.requester })
      .then((fetched) => {
        entry.full = fetched.data.hasNext;
      })
      // A busy budget or a failing ERP leaves the answer to the index; nothing to report.
      .catch(() => undefined);
    await waitAtMost(search, this.options.waitMs);
    return local();
  }

  private needsUpstream(text: string, category: number | undefined): boolean {
    const words = text.split(' ');
    const last = words.at(-1) ?? '';
    if (last.length < MIN_UPSTREAM_WORD) return false;
    const now = this.now();
    return !this.searched.some(
      (s) =>
        now - s.at < this.options.coverMs &&
        s.category === category &&
        text.startsWith(s.text) &&
        (s.words === words.length || !s.full),
    );
  }

  /** Counts one upstream search for `requester`; false when its minute's allowance is spent. */
  private spend(requester: string): boolean {
    const now = this.now();
    const recent = (this.spent.get(requester) ?? []).filter((at) => now - at < MINUTE_MS);
    const allowed =
      recent.length < (this.options.perPersonPerMinute ?? TYPEAHEAD_SEARCHES_PER_MINUTE);
    if (allowed) recent.push(now);
    if (recent.length > 0) this.spent.set(requester, recent);
    else this.spent.delete(requester);
    // Bounded like `searched`: the oldest typists are forgotten first.
    if (this.spent.size > MAX_REMEMBERED) {
      const oldest = this.spent.keys().next().value;
      if (oldest !== undefined) this.spent.delete(oldest);
    }
    return allowed;
  }

  private remember(entry: Searched): void {
    this.searched.push(entry);
    if (this.searched.length > MAX_REMEMBERED) this.searched.shift();
  }
}

function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A code as people mistype it: case, accents and separators do not count (`widget9`). */
function codeKey(code: string): string {
  return withoutAccents(code)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** Longest code compared: a pasted paragraph is not a typo of a code. */
const MAX_CODE_KEY = 40;

/**
 * The known codes nearest to one that matched nothing: those equal to it but for case,
 * accents and separators, else those fewest typos away (at most two; one for short codes).
 * Codes further off are not offered: a wrong guess is worse than none.
 */
export function nearestCodes(codes: Iterable<string>, typed: string, limit = 3): string[] {
  const key = codeKey(typed).slice(0, MAX_CODE_KEY);
  if (key.length < 2) return [];
  const max = key.length <= 4 ? 1 : 2;
  const found: Array<{ code: string; distance: number }> = [];
  for (const code of codes) {
    const candidate = codeKey(code);
    if (candidate.length > MAX_CODE_KEY || code === typed) continue;
    const distance = candidate === key ? 0 : editDistance(key, candidate, max);
    if (distance <= max) found.push({ code, distance });
  }
  // Only the closest: a code one typo away makes those two away noise.
  const closest = Math.min(...found.map((f) => f.distance));
  return found
    .filter((f) => f.distance === closest)
    .sort(
      (a, b) =>
        a.distance - b.distance || a.code.length - b.code.length || a.code.localeCompare(b.code),
    )
    .slice(0, limit)
    .map((f) => f.code);
}
