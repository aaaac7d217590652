/**
 * What a new user meets, end to end through Bolt's real HTTP receiver on the sandbox ERP:
 * times as Slack date tokens, cost only on the private card (unless SHARE_COST), paging
 * through every branch, Share and "Up to" keeping the user's place, fallback searches that
 * read as searches, and a contact card in words a person understands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSandboxData, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonLabelled, buttonsOf, type FoundButton, textOf } from '../helpers/blocks.js';
import { ask, click, type Message } from './helpers/conversation.js';

const MANY = 'WIDGET-9-BRACKET';
const BRANCH_COUNT = 120;

let erp: RunningSandbox;
let run: RunningApp;
let sharing: RunningApp;

beforeAll(async () => {
  const data = generateSandboxData();
  // An item stocked in 120 branches (the sandbox has 12): "All branches" must reach them all.
  const many = data.items.find((item) => item.record.code === MANY);
  if (!many) throw new Error(`no ${MANY}`);
  many.record.branches = Array.from({ length: BRANCH_COUNT }, (_, i) => ({
    id: 500 + i,
    name: `Branch ${String(i + 1).padStart(3, '0')}`,
    soh: i % 3,
    allocated: 0,
    onorder: 0,
    available: i % 3,
  }));
  erp = await startSandbox({ data });
  run = await startApp({ erp });
  sharing = await startApp({ erp, env: { SHARE_COST: 'true' } });
});
afterAll(async () => {
  await run?.stop();
  await sharing?.stop();
  await erp?.close();
});

/** Presses "Share to channel" and returns what the channel got. */
async function share(app: RunningApp, message: Message): Promise<Message> {
  const button = buttonLabelled(message, 'Share to channel');
  const { responseUrl } = await app.click(button.action_id, button.value ?? '');
  const posts = await app.slack.waitForResponses(responseUrl, 2);
  const shared = posts.find((post) => post.body.response_type === 'in_channel');
  if (!shared) throw new Error('nothing was shared to the channel');
  return shared.body as Message;
}

const branchNames = (message: Message) =>
  [...textOf(message).matchAll(/Branch \d{3}/g)].map((m) => m[0]);
const press = (app: RunningApp, message: Message, label: string) =>
  clickOn(app, buttonLabelled(message, label));
const clickOn = (app: RunningApp, button: FoundButton) => click(app, button);

describe('times', () => {
  it('are Slack date tokens with an absolute fallback; relative words come from {ago}', async () => {
    const card = await ask(run, '/stock', 'WIDGET-9');
    const footer = textOf({ blocks: card.blocks });
    expect(footer).toMatch(
      /Fetched <!date\^\d+\^\{ago\}\|\d{1,2} [A-Z][a-z]{2} \d{4} at \d\d:\d\d UTC>/,
    );
    // Nothing relative frozen into the blocks: each reader's Slack works it out.
    const outsideTokens = textOf({ blocks: card.blocks }).replace(/<!date\^[^>]*>/g, '');
    expect(outsideTokens).not.toMatch(/just now|\d+ (s|min|minutes?|hours?) ago/);
    // The notification text renders no token and knows no reader's zone: relative, read
    // when it arrives, never a fixed UTC time.
    expect(card.text).toMatch(/fetched (just now|\d+ min ago)/);
    expect(card.text).not.toMatch(/UTC|\d\d:\d\d/);
  });

  it('a shared card says the absolute date and time its data was fetched', async () => {
    const shared = await share(run, await ask(run, '/stock', 'WIDGET-9'));
    expect(textOf(shared)).toMatch(
      /<!date\^\d+\^\{date_short_pretty\} at \{time\}[^|]*\|\d{1,2} [A-Z][a-z]{2} \d{4} at/,
    );
  });
});

describe('cost', () => {
  it('shows on the asker’s private card only, for the item and its components', async () => {
    const card = await ask(run, '/stock', 'WIDGET-9');
    expect(textOf(card)).toContain('Cost (internal) ');
    const bom = await press(run, card, 'Bill of materials');
    expect(textOf(bom)).toMatch(/`WIDGET-9-CORE`.* · cost [\d,.]+/);
    const shared = await share(run, bom);
    expect(textOf(shared)).toContain('WIDGET-9-CORE');
    expect(textOf(shared)).not.toContain('Cost (internal)');
    expect(textOf(shared)).not.toMatch(/cost \d/);
  });

  it('shows on shared cards too with SHARE_COST=true', async () => {
    const card = await ask(sharing, '/stock', 'WIDGET-9');
    expect(textOf(await share(sharing, card))).toContain('Cost (internal) ');
    const bom = await share(sharing, await press(sharing, card, 'Bill of materials'));
    expect(textOf(bom)).toMatch(/cost \d/);
  });

  it('search rows show the sell price the ERP gives', async () => {
    const list = await ask(run, '/stock', 'blue widget');
    expect(textOf(list)).toMatch(/sell price [\d,]+\.\d\d/);
  });
});

describe('All branches', () => {
  it('pages through every branch with Next and Previous, then shares the page in view', async () => {
    const card = await ask(run, '/stock', MANY);
    expect(textOf(card)).not.toContain('Branch 120');
    let page = await press(run, card, 'All branches');
    expect(textOf(page)).toContain(`all ${BRANCH_COUNT} · 1–20 (page 1 of 6)`);
    const seen = new Set(branchNames(page));
    for (let i = 2; i <= 6; i++) {
      page = await press(run, page, 'Next branches');
      expect(textOf(page)).toContain(`(page ${i} of 6)`);
      for (const name of branchNames(page)) seen.add(name);
    }
    expect(seen.size).toBe(BRANCH_COUNT);
    expect(buttonsOf(page).some((b) => b.text.includes('Next branches'))).toBe(false);
    page = await press(run, page, 'Previous branches');
    expect(textOf(page)).toContain('(page 5 of 6)');
    const onPage = branchNames(page);

    const shared = await share(run, page);
    expect(textOf(shared)).toContain('(page 5 of 6)');
    expect(branchNames(shared)).toEqual(onPage);
    expect(buttonsOf(shared).map((b) => b.text)).toEqual(['View', 'Remove']);
  });

  it('"Back" returns to the card', async () => {
    const all = await press(run, await ask(run, '/stock', MANY), 'All branches');
    const best = await press(run, all, 'Back');
    expect(textOf(best)).toContain(`All branches (${BRANCH_COUNT})`);
  });
});

describe('BOM drill-down', () => {
  it('"Up to" returns to the page of the parent the user left', async () => {
    let parent = await press(run, await ask(run, '/stock', 'PLANT-88'), 'Bill of materials (86)');
    let expand: FoundButton | undefined;
    for (let page = 2; page <= 18 && !expand; page++) {
      parent = await press(run, parent, 'Next components');
      expand = buttonsOf(parent).find((b) => b.text.startsWith('Expand'));
    }
    if (!expand) throw new Error('PLANT-88 has no sub-assembly after its first page');
    const range = /· (\d+–\d+) of 86/.exec(textOf(parent))?.[1];
    const child = await clickOn(run, expand);
    expect(textOf(child)).toContain(':arrow_down_small: in `PLANT-88`');
    const back = await press(run, child, 'Up to PLANT-88');
    expect(textOf(back)).toContain(`${range} of 86`);
  });
});

describe('fallback searches', () => {
  it('read as a search when a code is not found but words match', async () => {
    for (const [command, text, title] of [
      ['/contact', 'acme', '*Contacts matching* “acme”'],
      ['/stock', 'gasket', '*Items matching* “gasket”'],
    ] as const) {
      const list = await ask(run, command, text);
      expect(textOf(list)).toContain(title);
      expect(textOf(list)).not.toMatch(/has the code|Closest matches|not found/i);
    }
  });

  it('say "not found" only when nothing matched at all', async () => {
    const list = await ask(run, '/stock', 'QQZZXX');
    expect(textOf(list)).toContain('Nothing found:* no item has the code “QQZZXX”');
  });
});

describe('the contact card', () => {
  it('shares the page of people the user is looking at', async () => {
    const all = await press(run, await ask(run, '/contact', 'BIGCO01'), 'All people (40)');
    const page2 = await press(run, all, 'Next people');
    expect(textOf(page2)).toContain('(page 2 of 5)');
    const shared = await share(run, page2);
    expect(textOf(shared)).toContain('*People* · 40 · 9–16 (page 2 of 5)');
    expect(textOf(shared)).toContain('•••');
  });

  it('uses labels a person understands, formats numbers, and makes stop credit stand out', async () => {
    const record = erp.data.contacts.find((c) => c.record.code === 'ACMEWH01')?.record;
    if (!record) throw new Error('no ACMEWH01');
    const text = textOf(await ask(run, '/contact', 'ACMEWH01'));
    const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });
    for (const expected of [
      `Credit limit ${grouped.format(record.climit)} · Terms `,
      ` · Discount ${grouped.format(record.discount)}`,
      ':warning: *On stop credit: check before shipping*',
      ':no_entry: *Suspended*',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/Address 4|Stopcred|[$%]|not given|:no_entry: \*1\*/);
  });
});
