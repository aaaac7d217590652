/**
 * `/stock supplier:hane` and `/stock category:2` with no word, on the built-in sandbox, whose
 * search needs a word (as the ERP's may): while the index is still reading the catalogue the
 * answer says what to add, with an example, rather than the ERP's bare refusal.
 */
import { describe, expect, it } from 'vitest';
import { itemSearchRow } from '../../src/sandbox/render.js';
import { sandboxConsole } from './consoleSession.js';

const run = sandboxConsole();

describe('filters alone', () => {
  it('says what to add while the index cannot answer them', async () => {
    const { text: raw } = await run(['/stock supplier:hane', '/stock category:2']);
    // The console wraps long lines: read the text as one.
    const text = raw.replace(/\s+/g, ' ');
    expect(text).toContain('Supplier “Hane - Bahringer” is supplier:');
    expect(text).toMatch(
      /The ERP searches by words: add one to supplier:\d+, e\.g\. \/stock bolt supplier:\d+/,
    );
    expect(text).toContain('add one to category:2, e.g. /stock bolt category:2');
    expect(text).toContain('once the app has read the whole catalogue');
    expect(text).not.toContain('add a keyword');
  });

  it('lists them from the index once it holds the whole catalogue, with no ERP search', async () => {
    const { store } = run.services().catalogue;
    const sandbox = run.services().sandbox;
    if (!sandbox) throw new Error('the sandbox expected');
    store.addRows(
      sandbox.data.items.map((item) => itemSearchRow(item)),
      Date.now(),
    );
    store.state = { ...store.state, lastFullPassAt: Date.now(), wordless: false };
    const before = sandbox.stats().requests.searchItems ?? 0;
    const { text: raw } = await run(['/stock supplier:hane', '/stock category:2']);
    const text = raw.replace(/\s+/g, ' ');
    expect(text).toContain('From the app’s catalogue index');
    expect(text).not.toContain('The ERP searches by words');
    expect(sandbox.stats().requests.searchItems ?? 0).toBe(before);
  });
});
