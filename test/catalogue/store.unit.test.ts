/**
 * The catalogue store: typeahead by prefix (codes and description words), category filter,
 * the ERP's ranking for code matches, id learning, and snapshots that survive a round trip
 * through gzip, zod and a file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  decodeSnapshot,
  encodeSnapshot,
  loadSnapshotFile,
  saveSnapshotFile,
} from '../../src/catalogue/shared.js';
import { CatalogueStore } from '../../src/catalogue/store.js';
import type { ItemSearchRow } from '../../src/erp/schemas.js';

function row(id: number, code: string, description: string, category: string): ItemSearchRow {
  return {
    id,
    code,
    description,
    category_name: category,
    price: 12.5,
    supplier_name: 'Acme Supply',
    status_label: 'Active',
    soh: 10,
    allocated: 2,
    onorder: 0,
    available: 8,
    has_bom: id % 2 === 0,
    has_kit: false,
  };
}

function filled(): CatalogueStore {
  const store = new CatalogueStore();
  store.addRows(
    [
      row(1, 'WID-0009', 'Blue widget 9mm', 'Widgets'),
      row(2, 'WID-0010', 'Red widget 12mm', 'Widgets'),
      row(3, 'FST-0100', 'Hex bolt M8 zinc', 'Fasteners'),
      row(4, 'SPR-0001', 'Sprocket 20 teeth', 'Drive'),
      row(5, 'BWID-1', 'Bracket for widget', 'Brackets'),
    ],
    1_000,
  );
  return store;
}

const codes = (items: ReadonlyArray<{ code: string }>) => items.map((i) => i.code);

describe('CatalogueStore.suggest', () => {
  it('finds code prefixes first, then description words by prefix', () => {
    const store = filled();
    expect(codes(store.suggest('wid-00', { limit: 10 }))).toEqual(['WID-0009', 'WID-0010']);
    const widget = codes(store.suggest('widg', { limit: 10 }));
    expect(widget).toEqual(expect.arrayContaining(['WID-0009', 'WID-0010', 'BWID-1']));
    expect(codes(store.suggest('WID-0009', { limit: 10 }))[0]).toBe('WID-0009');
  });

  it('needs every word, the others as prefixes, and respects the category', () => {
    const store = filled();
    expect(codes(store.suggest('widget blu', { limit: 10 }))).toEqual(['WID-0009']);
    expect(codes(store.suggest('widget', { limit: 10, category: 'Brackets' }))).toEqual(['BWID-1']);
    expect(store.suggest('xylophone', { limit: 10 })).toEqual([]);
    expect(store.suggest('   ', { limit: 10 })).toEqual([]);
  });

  it('folds letters that sound alike (the encoder’s fuzziness)', () => {
    expect(codes(filled().suggest('sprok', { limit: 10 }))).toEqual(['SPR-0001']);
  });

  it('suggests nothing for a word that resembles no word of any item', () => {
    const store = filled();
    store.addRows([row(7, 'SEL-0001', 'Seal kit DN50', 'Seals')], 2_000);
    // The encoder reduces "zzzz" to "s", the sound of "Seal" and "Sprocket".
    for (const typed of ['zzzz', 'zzzz bolt', 'qqqq', 'xyzzy']) {
      expect(codes(store.suggest(typed, { limit: 10 })), typed).toEqual([]);
    }
    expect(codes(store.suggest('seal', { limit: 10 }))).toEqual(['SEL-0001']);
    expect(codes(store.suggest('zink', { limit: 10 }))).toEqual(['FST-0100']);
  });

  it('ranks a code equal to the word, then codes starting with it, before the first matches', () => {
    // Items added within 2 s of the code order's last sort are found by their words only, and
    // FlexSearch lists first the many that came first and sound the same ("ZEAL-0" for seal):
    // the codes must still rank "seal" and "SEAL-9" ahead of them.
    vi.useFakeTimers({ now: 10_000, toFake: ['Date'] });
    try {
      const store = filled();
      store.suggest('wid', { limit: 10 });
      const zeals = Array.from({ length: 40 }, (_, i) => row(100 + i, `ZEAL-${i}`, 'Kit', 'Seals'));
      store.addRows(
        [...zeals, row(200, 'SEAL-9', 'Ring', 'Seals'), row(201, 'seal', 'Seal', 'Seals')],
        2_000,
      );
      expect(codes(store.suggest('seal', { limit: 3 }))).toEqual(['seal', 'SEAL-9', 'ZEAL-0']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('CatalogueStore categories and records', () => {
  it('learns category ids from filtered rows and counts items per category', () => {
    const store = filled();
    store.addRows([row(6, 'FST-0200', 'Nut M8', 'Fasteners')], 2_000, 7);
    const fasteners = store.categories().find((c) => c.name === 'Fasteners');
    expect(fasteners).toEqual({ name: 'Fasteners', id: 7, items: 2 });
    expect(store.categories().find((c) => c.name === 'Widgets')?.id).toBeUndefined();
    expect(store.categoryName(7)).toBe('Fasteners');
  });

  it('counts only new items as new, and keeps the latest figures', () => {
    const store = filled();
    expect(store.addRows([row(1, 'WID-0009', 'Blue widget 9mm', 'Widgets')], 5_000)).toBe(0);
    expect(store.get(1)?.seenAt).toBe(5_000);
    expect(store.size).toBe(5);
  });
});

describe('CatalogueStore.byCodeOf', () => {
  it('finds an item by its code in any case, and nothing for a code it does not hold', () => {
    const store = filled();
    expect(store.byCodeOf('wid-0009')?.id).toBe(1);
    expect(store.byCodeOf('FST-0100')?.description).toBe('Hex bolt M8 zinc');
    expect(store.byCodeOf('WID-0011')).toBeUndefined();
    expect(store.byCodeOf('WID')).toBeUndefined();
  });

  it('answers the first item seen when two codes differ only in case', () => {
    const store = filled();
    store.addRows([row(7, 'wid-0009', 'Lower-case twin', 'Widgets')], 2_000);
    expect(store.byCodeOf('WID-0009')?.id).toBe(1);
  });

  it('follows a code the ERP changed: the old code leads to the next holder or to nothing', () => {
    const store = filled();
    store.addRows([row(7, 'wid-0009', 'Lower-case twin', 'Widgets')], 2_000);
    store.addRows([row(1, 'WID-0099', 'Blue widget 9mm', 'Widgets')], 3_000);
    expect(store.byCodeOf('WID-0099')?.id).toBe(1);
    expect(store.byCodeOf('WID-0009')?.id).toBe(7);
    store.addRows([row(4, 'SPR-0002', 'Sprocket 20 teeth', 'Drive')], 3_000);
    expect(store.byCodeOf('SPR-0001')).toBeUndefined();
    expect(store.byCodeOf('spr-0002')?.id).toBe(4);
  });

  it('finds every one of thousands of codes, and none it does not hold', () => {
    const store = new CatalogueStore();
    const rows = Array.from({ length: 3_000 }, (_, i) => row(i + 1, `K-${i}`, `Item ${i}`, 'Misc'));
    store.addRows(rows, 1_000);
    expect(rows.every((r) => store.byCodeOf(r.code.toLowerCase())?.id === r.id)).toBe(true);
    expect(store.byCodeOf('K-3000')).toBeUndefined();
    store.addRows([row(1, 'K-RENAMED', 'Item 0', 'Misc')], 2_000);
    expect(store.byCodeOf('K-0')).toBeUndefined();
    expect(store.byCodeOf('k-renamed')?.id).toBe(1);
    expect(store.byCodeOf('K-2999')?.id).toBe(3_000);
  });

  it('knows the codes of a loaded snapshot and forgets those it replaced', () => {
    const store = filled();
    const other = new CatalogueStore();
    other.addRows([row(9, 'NEW-1', 'New thing', 'Misc')], 1_000);
    store.load(other.snapshot());
    expect(store.byCodeOf('new-1')?.id).toBe(9);
    expect(store.byCodeOf('WID-0009')).toBeUndefined();
    store.load(filled().snapshot());
    expect(store.byCodeOf('WID-0009')?.id).toBe(1);
  });
});

describe('CatalogueStore bound (CATALOGUE_MAX_ITEMS)', () => {
  it('turns new items away at maxItems, keeps refreshing those held, and says it is full', () => {
    const store = new CatalogueStore({ maxItems: 2 });
    const added = store.addRows(
      [
        row(1, 'WID-0009', 'Blue widget 9mm', 'Widgets'),
        row(2, 'WID-0010', 'Red widget 12mm', 'Widgets'),
        row(3, 'FST-0100', 'Hex bolt M8 zinc', 'Fasteners'),
      ],
      1_000,
    );
    expect(added).toBe(2);
    expect(store.size).toBe(2);
    expect(store.full).toBe(true);
    expect(store.turnedAway).toBe(1);
    expect(store.get(3)).toBeUndefined();
    expect(store.suggest('hex', { limit: 5 })).toEqual([]);
    expect(store.addRows([row(1, 'WID-0009', 'Blue widget 9mm', 'Widgets')], 5_000)).toBe(0);
    expect(store.get(1)?.seenAt).toBe(5_000);
    expect(store.size).toBe(2);
  });

  it('is not full until an item is turned away, and a snapshot load starts the count again', () => {
    const store = new CatalogueStore({ maxItems: 5 });
    store.load(filled().snapshot());
    expect(store.size).toBe(5);
    expect(store.full).toBe(false);
    const small = new CatalogueStore({ maxItems: 3 });
    small.load(filled().snapshot());
    expect(small.size).toBe(3);
    expect(small.turnedAway).toBe(2);
    small.load({ ...filled().snapshot(), items: [] });
    expect(small.full).toBe(false);
  });

  it('refuses a bound below one item or not whole; unbounded unless given one', () => {
    expect(() => new CatalogueStore({ maxItems: 0 })).toThrow(RangeError);
    expect(() => new CatalogueStore({ maxItems: 2.5 })).toThrow(RangeError);
    expect(new CatalogueStore().maxItems).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('snapshots', () => {
  it('survive gzip and validation, and a file, unchanged', async () => {
    const store = filled();
    store.learnCategory(3, 'Fasteners');
    store.state = { lastFullPassAt: 9_000, knownTotal: 5, wordless: false };
    const snapshot = store.snapshot();
    expect(decodeSnapshot(encodeSnapshot(snapshot))).toEqual(snapshot);

    const dir = await mkdtemp(join(tmpdir(), 'catalogue-'));
    try {
      const file = join(dir, 'catalogue.json.gz');
      expect(await loadSnapshotFile(file)).toBeUndefined();
      await saveSnapshotFile(file, snapshot);
      const copy = new CatalogueStore();
      copy.load((await loadSnapshotFile(file)) ?? snapshot);
      expect(copy.snapshot()).toEqual(snapshot);
      expect(codes(copy.suggest('sprocket', { limit: 5 }))).toEqual(['SPR-0001']);
      await writeFile(file, 'not a snapshot');
      await expect(loadSnapshotFile(file)).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
