/**
 * `/stock categories` and `/stock words` answered from the index, end to end over HTTP on the
 * sandbox ERP; and the parser's reading of `categories`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStockCommand } from '../../src/slack/parser.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';

describe('parseStockCommand', () => {
  it('reads `categories` alone as the categories list, any case', () => {
    for (const text of ['categories', ' Categories ', 'CATEGORIES']) {
      expect(parseStockCommand(text)).toMatchObject({ ok: true, request: { kind: 'categories' } });
    }
  });

  it('keeps `categories` with other words or filters a search', () => {
    expect(parseStockCommand('categories bolt')).toMatchObject({ request: { kind: 'search' } });
    expect(parseStockCommand('categories category:2')).toMatchObject({
      request: { kind: 'search' },
    });
  });
});

describe('/stock categories and words from the index', () => {
  let run: RunningApp;
  const searches = () => run.sandbox.stats().requests.searchItems ?? 0;

  beforeAll(async () => {
    run = await startApp();
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('says the index is empty before anything was seen', async () => {
    const sent = await run.command('/stock', 'categories');
    expect(textOf(sent.ack ?? {})).toContain('No categories known yet');
  });

  it('lists the categories seen, with the ids learned from filtered searches and counts', async () => {
    await run.services.lookup.searchItems({ words: ['e'], category: 3 }, 0);
    await run.services.lookup.searchItems({ words: ['widget'] }, 0);
    const before = searches();
    const sent = await run.command('/stock', 'categories');
    const text = textOf(sent.ack ?? {});
    const fasteners = run.sandbox.data.items.find((item) => item.categoryId === 3);
    expect(text).toContain(`${fasteners?.record.category}`);
    expect(text).toContain('category:3');
    expect(text).toContain('Widgets');
    expect(searches()).toBe(before);
  });

  it('answers words from the index when it is complete and recent, saying how old', async () => {
    const store = run.services.catalogue.store;
    store.state.lastFullPassAt = Date.now();
    const before = searches();
    const sent = await run.command('/stock', 'widget e');
    const text = textOf(sent.ack ?? {});
    expect(text).toContain('catalogue index');
    expect(text).toMatch(/WID/);
    expect(searches()).toBe(before);

    store.state.lastFullPassAt = undefined;
    const fallback = await run.command('/stock', 'widget blue');
    expect(textOf(fallback.ack ?? {})).not.toContain('catalogue index');
    expect(searches()).toBe(before + 1);
  });
});
