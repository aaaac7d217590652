/**
 * Typeahead on an incomplete index spends at most a few upstream searches per person a
 * minute: the rest of a person's keystrokes are answered from the index alone, and another
 * person keeps their own allowance.
 */
import { describe, expect, it } from 'vitest';
import { CatalogueStore } from '../../src/catalogue/store.js';
import { Suggester, TYPEAHEAD_SEARCHES_PER_MINUTE } from '../../src/catalogue/suggest.js';

function rig() {
  let now = 0;
  const searches: Array<{ words: string[]; requester: string | undefined }> = [];
  const suggester = new Suggester({
    store: new CatalogueStore(),
    complete: () => false,
    waitMs: 0,
    coverMs: 60_000,
    now: () => now,
    lookup: {
      searchItems: async (query, _page, options) => {
        searches.push({ words: [...query.words], requester: options?.requester });
        return {
          data: { rows: [], hasNext: false, page: 0 },
          freshness: { fromCache: false, stale: false, fetchedAt: new Date(now) },
        } as never;
      },
    },
  });
  return { suggester, searches, advance: (ms: number) => (now += ms) };
}

// Words that do not refine each other: each needs its own upstream search.
const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

describe('typeahead upstream searches per person', () => {
  it('stop at the allowance for one typist, and another typist still has theirs', async () => {
    const { suggester, searches } = rig();
    for (const word of words) await suggester.suggest(word, { requester: 'UALICE', limit: 10 });
    expect(searches).toHaveLength(TYPEAHEAD_SEARCHES_PER_MINUTE);
    await suggester.suggest('india', { requester: 'UBOB', limit: 10 });
    expect(searches.at(-1)).toEqual({ words: ['india'], requester: 'UBOB' });
  });

  it('come back a minute later', async () => {
    const { suggester, searches, advance } = rig();
    for (const word of words) await suggester.suggest(word, { requester: 'UALICE', limit: 10 });
    const before = searches.length;
    advance(61_000);
    await suggester.suggest('juliet', { requester: 'UALICE', limit: 10 });
    expect(searches).toHaveLength(before + 1);
  });
});
