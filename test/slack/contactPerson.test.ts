/**
 * `/contact john smith`: a contact search by a person's name says on each row which person
 * matched, and View opens the card showing them; a search that matched the company itself
 * looks nobody up. Through Bolt's HTTP receiver on the sandbox ERP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../e2e/helpers/conversation.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';

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

  it('looks nobody up when the company itself matched', async () => {
    const before = run.sandbox.stats().requests.getContact ?? 0;
    const answer = await ask(run, '/contact', 'acme');
    expect(textOf(answer)).not.toContain('Matches');
    // One getContact: "acme" is tried as a code first; the search's rows cost none.
    expect(run.sandbox.stats().requests.getContact ?? 0).toBe(before + 1);
  });
});
