/**
 * The answer-first forms end to end: signed slash commands to the real Bolt app, the sandbox
 * ERP over HTTP. Each asks what a salesperson or support person would, and checks the answer
 * and what it cost upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/views/blocks.js';
import type { SlackMessage } from '../../src/views/message.js';
import { ask, click } from '../e2e/helpers/conversation.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonLabelled, buttonsOf, textOf } from '../helpers/blocks.js';

describe('answer-first /stock and /contact', () => {
  let run: RunningApp;
  const calls = (endpoint: string) => run.sandbox.stats().requests[endpoint] ?? 0;

  beforeAll(async () => {
    run = await startApp();
  });
  afterAll(async () => {
    await run?.stop();
  });

  const widget = () => {
    const item = run.sandbox.data.items.find((i) => i.record.code === 'WIDGET-9')?.record;
    if (!item) throw new Error('the sandbox has no WIDGET-9');
    return item;
  };

  it('/stock WIDGET-9 N branch: one getItem, the verdict first and in the text', async () => {
    const item = widget();
    const branch = [...item.branches].sort(
      (a, b) => b.soh - b.allocated - (a.soh - a.allocated),
    )[0];
    if (!branch) throw new Error('WIDGET-9 has no branches');
    const available = branch.soh - branch.allocated;
    const asked = Math.max(1, available);
    const [gets, searches] = [calls('getItem'), calls('searchItems')];
    const answer = await ask(run, '/stock', `WIDGET-9 ${asked} ${branch.name.toLowerCase()}`);
    expect(calls('getItem') - gets).toBe(1);
    // At most the one search for the sell price the index has not seen (docs/erp-api.md).
    expect(calls('searchItems') - searches).toBeLessThanOrEqual(1);
    const verdict = available >= asked ? 'Yes' : 'No';
    expect(answer.text).toMatch(new RegExp(`^${verdict}, ${asked} of WIDGET-9`));
    expect(JSON.stringify(answer.blocks?.[0])).toContain(`*${verdict}:*`);
    expect(checkMessageLimits(answer as SlackMessage)).toEqual([]);
    const share = buttonsOf(answer).find((b) => b.text === 'Share to channel');
    expect(JSON.parse(share?.value ?? '{}')).toMatchObject({ q: asked });
  });

  it('/stock WIDGET-9 nowhereville asks back naming the phrase, never answers WIDGET-9', async () => {
    // A word naming no branch may qualify the item ("the WIDGET-9 bracket"): no item is
    // named by it, so the answer is a question with the nearest code, not WIDGET-9's card.
    const answer = await ask(run, '/stock', 'WIDGET-9 nowhereville');
    expect(textOf(answer)).toContain('WIDGET-9 nowhereville');
    expect(textOf(answer)).not.toContain('All branches (');
    expect(buttonsOf(answer).map((b) => b.text)).toContain('View WIDGET-9');
  });

  it('/stock WIDGET-9 bracket answers the bracket, WIDGET-9-BRACKET', async () => {
    const answer = await ask(run, '/stock', 'WIDGET-9 bracket');
    expect(answer.text).toContain('WIDGET-9-BRACKET');
  });

  it('/stock WIDGET-9 5 narnia asks "Which branch?" with no verdict; a branch button answers it', async () => {
    const answer = await ask(run, '/stock', 'WIDGET-9 5 narnia');
    expect(answer.text).toMatch(/^Which branch\? “narnia” is not a branch of WIDGET-9/);
    expect(textOf(answer)).not.toMatch(/Yes|No:|company-wide/);
    const labels = buttonsOf(answer).map((b) => b.text);
    expect(labels.at(-1)).toBe('Company-wide');
    expect(labels.length).toBeLessThanOrEqual(6);
    expect(labels[0]).toMatch(/^Sydney \(\d+\)$/);
    const verdict = await click(run, buttonLabelled(answer, 'Sydney'));
    expect(verdict.text).toMatch(/^Yes, 5 of WIDGET-9 at Sydney: /);
    const company = await click(run, buttonLabelled(answer, 'Company-wide'));
    expect(company.text).toMatch(/^Yes, 5 of WIDGET-9: [\d,]+ free company-wide/);
  });

  it('/stock WIDGET-9 50 Perth WA answers for Perth and says WA was not read as a branch', async () => {
    const answer = await ask(run, '/stock', 'WIDGET-9 50 Perth WA');
    expect(answer.text).toMatch(/^No, 50 of WIDGET-9 at Perth: /);
    expect(textOf(answer)).toContain('Not read as a branch: “WA”.');
    expect(textOf(answer)).not.toContain('company-wide');
  });

  it('words that are not a code stay the search they were', async () => {
    const searches = calls('searchItems');
    const answer = await ask(run, '/stock', 'NOSUCHCODE-1 blue');
    expect(calls('searchItems') - searches).toBeLessThanOrEqual(1);
    expect(textOf(answer)).not.toContain('is not a branch');
  });

  it('/stock WIDGT-9 and widget9 offer the known code as a button', async () => {
    for (const typed of ['WIDGT-9', 'widget9']) {
      const answer = await ask(run, '/stock', typed);
      expect(textOf(answer)).toContain('Did you mean `WIDGET-9`');
      const view = buttonsOf(answer).find((b) => b.text === 'View WIDGET-9');
      expect(JSON.parse(view?.value ?? '{}')).toMatchObject({ r: { c: 'WIDGET-9' } });
    }
  });

  it('/stock WIDGT-9 50 perth offers WIDGET-9 asking the same question, and it answers it', async () => {
    const answer = await ask(run, '/stock', 'WIDGT-9 50 perth');
    expect(textOf(answer)).toContain('Did you mean `WIDGET-9`');
    const asked = buttonLabelled(answer, 'WIDGET-9: 50 at perth?');
    expect(JSON.parse(asked.value ?? '{}')).toMatchObject({
      r: { c: 'WIDGET-9' },
      q: 50,
      b: ['perth'],
    });
    const verdict = await click(run, asked);
    expect(verdict.text).toMatch(/^No, 50 of WIDGET-9 at Perth: /);
  });

  it('/stock A, B answers one line a code, naming those not found', async () => {
    const answer = await ask(run, '/stock', 'WIDGET-9, WIDGET-9-CORE, NOPE-404');
    const text = textOf(answer);
    expect(text).toContain('`WIDGET-9`');
    expect(text).toContain('`WIDGET-9-CORE`');
    expect(text).toMatch(/Not found:\* `NOPE-404`/);
    expect(checkMessageLimits(answer as SlackMessage)).toEqual([]);
  });

  it('/contact ACME01 accounts shows only the matching people, and Reveal carries the filter', async () => {
    const answer = await ask(run, '/contact', 'ACME01 accounts');
    const text = textOf(answer);
    expect(text).toMatch(/1 of \d+ people match “accounts”/);
    expect(text).toContain('John Smith');
    expect(text).not.toContain('Jane Citizen');
    const reveal = buttonsOf(answer).find((b) => b.text.startsWith('Reveal'));
    expect(JSON.parse(reveal?.value ?? '{}')).toMatchObject({ pf: ['accounts'] });
  });
});
