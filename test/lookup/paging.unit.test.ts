import { describe, expect, it } from 'vitest';
import { pageFromWindow } from '../../src/lookup/paging.js';
import { InputError } from '../../src/lookup/types.js';
import { makeRow, makeService } from './fakes.js';

describe('search paging', () => {
  it('serves pages 0..4 from one upstream window of 50 and fetches the next window at 50', async () => {
    const { erp, service } = makeService();
    for (let offset = 0; offset < 50; offset += 10) {
      const page = await service.searchItems({ words: ['row'] }, offset);
      expect(page.data.rows.map((row) => row.code)).toEqual(
        Array.from({ length: 10 }, (_, i) => `ROW-${offset + i}`),
      );
      expect(page.data).toMatchObject({
        offset,
        pageSize: 10,
        hasPrevious: offset > 0,
        hasNext: true,
      });
    }
    expect(erp.count('searchItems')).toBe(1);
    const sixth = await service.searchItems({ words: ['row'] }, 50);
    expect(sixth.data.rows[0]?.code).toBe('ROW-50');
    expect(erp.count('searchItems')).toBe(2);
    expect(erp.calls.map((call) => call.args)).toMatchObject([
      { offset: 0, limit: 50 },
      { offset: 50, limit: 50 },
    ]);
  });

  it('with count as a total: reports it, and hasNext follows the rows, not the count', async () => {
    const { erp, service } = makeService();
    erp.searchRows = Array.from({ length: 23 }, (_, i) => makeRow(i));
    erp.countMeaning = 'total';
    const first = await service.searchItems({ words: ['row'] }, 0);
    const last = await service.searchItems({ words: ['row'] }, 20);
    expect(first.data).toMatchObject({ hasNext: true, hasPrevious: false });
    expect(last.data).toMatchObject({ hasNext: false, hasPrevious: true });
    expect(last.data.rows).toHaveLength(3);
    // A short window is the last one: it tells the total by itself.
    expect(first.data.total).toBe(23);

    const big = makeService();
    big.erp.searchRows = Array.from({ length: 120 }, (_, i) => makeRow(i));
    const page = await big.service.searchItems({ words: ['row'] }, 60);
    expect(page.data.total).toBe(120);
  });

  it('with count as the page size: a full window still means there may be more', async () => {
    const { erp, service } = makeService();
    erp.searchRows = Array.from({ length: 50 }, (_, i) => makeRow(i));
    erp.countMeaning = 'page';
    const lastOfWindow = await service.searchItems({ words: ['row'] }, 40);
    // count 50 with a full window of 50: a page size or a total, nobody can tell.
    expect(lastOfWindow.data).toMatchObject({ hasNext: true, total: undefined });
    const beyond = await service.searchItems({ words: ['row'] }, 50);
    expect(beyond.data).toMatchObject({ rows: [], hasNext: false, hasPrevious: true });
  });

  it('never sends a search without keywords and without filters', async () => {
    const { erp, service } = makeService();
    await expect(service.searchItems({ words: ['  ', ''] }, 0)).rejects.toBeInstanceOf(InputError);
    await expect(service.searchContacts({ words: [] }, 0)).rejects.toBeInstanceOf(InputError);
    expect(erp.count()).toBe(0);
    await service.searchItems({ words: [], category: 2 }, 0);
    await service.searchContacts({ words: [], type: 'supplier' }, 0);
    expect(erp.count()).toBe(2);
  });

  it('refuses a negative or fractional offset', async () => {
    const { service } = makeService();
    await expect(service.searchItems({ words: ['a'] }, -10)).rejects.toBeInstanceOf(InputError);
    await expect(service.searchItems({ words: ['a'] }, 2.5)).rejects.toBeInstanceOf(InputError);
  });

  it('cuts an unaligned page from inside its window', () => {
    const rows = Array.from({ length: 50 }, (_, i) => makeRow(i));
    const page = pageFromWindow({ rows, count: 50 }, 0, 45);
    expect(page.rows.map((row) => row.code)).toEqual([
      'ROW-45',
      'ROW-46',
      'ROW-47',
      'ROW-48',
      'ROW-49',
    ]);
    expect(page.hasNext).toBe(true);
  });
});
