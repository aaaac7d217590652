/**
 * `/contact john smith`: a contact search by a person's name says on each row which person
 * matched, and View opens the card showing them; a search that matched the company itself
 * looks nobody up. Through Bolt's HTTP receiver on the sandbox ERP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../e2e/helpers/conversation.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonsOf, isObject, textOf } from '../helpers/blocks.js';

/** The list's rows: each section with a View beside it, and that View's value. */
function rowsOf(message: { blocks?: unknown }): Array<{ text: string; view: string }> {
  const blocks = Array.isArray(message.blocks) ? message.blocks.filter(isObject) : [];
  return blocks.flatMap((block) =>
    isObject(block.accessory) && isObject(block.text)
      ? [{ text: String(block.text.text), view: String(block.accessory.value) }]
      : [],
  );
}

describe('a contact search by a person’s name', () => {
  let run: RunningApp;

  beforeAll(async () => {
    run = await startApp();
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('names the person who matched on each row, and View shows them on the card', async () => {
    const answer = await ask(run, '/contact', 'john smith');
    const text = textOf(answer);
    expect(text).toContain('Matches *John Smith* (Accounts Payable)');
    const view = buttonsOf(answer).find((b) => b.accessibility_label?.includes('Acme Industrial'));
    expect(view?.value).toContain('"pf":["john","smith"]');
    // Rows the search found by their own name carry no filter.
    const smith = buttonsOf(answer).find((b) => b.value?.includes('SMITHH01'));
    expect(smith?.value).not.toContain('"pf"');
  });

  it('looks up three rows a page at most; the rows past them say what may have matched', async () => {
    const lookups = () => run.sandbox.stats().requests.getContact ?? 0;
    const before = lookups();
    // A first name many accounts' people have: more rows found by a person than are looked up.
    const answer = await ask(run, '/contact', 'victoria');
    const named = rowsOf(answer).filter((row) =>
      row.text.includes(':bust_in_silhouette: Matches *'),
    );
    const unnamed = rowsOf(answer).filter((row) =>
      row.text.includes(':bust_in_silhouette: Matched by a person or trading name'),
    );
    expect(named.length).toBeGreaterThan(0);
    expect(named.length).toBeLessThanOrEqual(3);
    expect(unnamed.length).toBeGreaterThan(0);
    // "victoria" tried as a code first, then the three rows looked up: the rows past them cost
    // nothing.
    expect(lookups() - before).toBe(4);
    // Their View opens the card with the people the words match, as a named row's does.
    for (const row of unnamed) expect(row.view).toContain('"pf":["victoria"]');
  });

  it('looks nobody up when the company itself matched', async () => {
    const before = run.sandbox.stats().requests.getContact ?? 0;
    const answer = await ask(run, '/contact', 'acme');
    expect(textOf(answer)).not.toContain('Matches');
    // One getContact: "acme" is tried as a code first; the search's rows cost none.
    expect(run.sandbox.stats().requests.getContact ?? 0).toBe(before + 1);
  });
});
