import { beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleOptions } from '../../src/console/index.js';
import { createLogger } from '../../src/log/logger.js';
import { consoleSession } from './consoleSession.js';
import { buildSmallApp, seen } from './smallApp.js';

const logger = createLogger({ level: 'silent' });

function runWith(lines: string[], extra: Partial<ConsoleOptions> = {}) {
  return consoleSession(lines, {
    buildApp: buildSmallApp,
    color: false,
    logger,
    historyFile: false,
    timing: { quietMs: 100, lateAnswerMs: 300, timeoutMs: 8000 },
    ...extra,
  });
}

beforeEach(() => {
  seen.bodies.length = 0;
  seen.userInfo.length = 0;
});

describe('console receiver with a small Bolt App', () => {
  it('turns a typed line into a slash command shaped like Slack’s and draws the later answer', async () => {
    const { code, text } = await runWith(['/stock WIDGET-9']);
    expect(code).toBe(0);
    expect(seen.bodies[0]).toMatchObject({
      command: '/stock',
      text: 'WIDGET-9',
      user_id: 'UCONSOLE',
      channel_id: 'DCONSOLE',
      team_id: 'TCONSOLE',
      api_app_id: 'ACONSOLE',
    });
    expect(seen.bodies[0]?.response_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/respond\//);
    expect(seen.bodies[0]?.trigger_id).toEqual(expect.any(String));
    expect(text).toContain('── only visible to you ──');
    expect(text).toContain('Widgets, page 1');
    expect(text).toContain('WIDGET-1 Blue widget & bolt  [1] View');
    expect(text).toContain('[2] Next ›  [3] Share to channel  [4] Reveal');
  });

  it('accepts the command without its slash', async () => {
    const { text } = await runWith(['stock WIDGET-9']);
    expect(seen.bodies[0]).toMatchObject({ command: '/stock', text: 'WIDGET-9' });
    expect(text).toContain('Widgets, page 1');
  });

  it('presses a numbered button as a block_actions body and replaces the message', async () => {
    const { code, text } = await runWith(['/stock WIDGET-9', '2']);
    expect(code).toBe(0);
    const click = seen.bodies[1] as Record<string, unknown>;
    expect(click).toMatchObject({
      type: 'block_actions',
      user: { id: 'UCONSOLE' },
      team: { id: 'TCONSOLE' },
      channel: { id: 'DCONSOLE' },
      container: { type: 'message', channel_id: 'DCONSOLE', is_ephemeral: true },
      actions: [{ type: 'button', action_id: 'stock_next_page', block_id: 'nav_1', value: '2' }],
    });
    expect(click.response_url).not.toEqual(seen.bodies[0]?.response_url);
    // Ephemeral source messages are not echoed back in the payload, as in Slack.
    expect(click).not.toHaveProperty('message');
    expect(text).toContain('── message updated · only visible to you ──');
    expect(text).toContain('Widgets, page 2');
  });

  it('numbers follow the replaced message: pressing Next twice reaches page 3', async () => {
    const { text } = await runWith(['/stock WIDGET-9', '2', '2']);
    expect(text).toContain('Widgets, page 3');
  });

  it('shares to the channel: deletes the ephemeral original and labels the new one', async () => {
    const { text } = await runWith(['/stock WIDGET-9', '3']);
    expect(text).toContain('(message deleted: Results page 1)');
    expect(text).toContain('── shared to channel ──');
    expect(text).toContain('Shared widgets');
  });

  it('answers Web API calls: users.info is a full member and chat.postMessage is shared', async () => {
    const { text } = await runWith(['/stock post']);
    expect(seen.userInfo[0]).toMatchObject({
      id: 'UCONSOLE',
      is_restricted: false,
      is_ultra_restricted: false,
      is_bot: false,
    });
    expect(text).toContain('── shared to channel ──\nPosted for everyone');
  });

  it('shows chat.postEphemeral to the clicking user only', async () => {
    const { text } = await runWith(['/stock WIDGET-9', '4']);
    expect(text).toMatch(/── only visible to you ──\nPhone: 0400 000 321/);
  });

  it('draws a text ack body as the reply', async () => {
    const { text } = await runWith(['/stock quick']);
    expect(text).toContain('Quick answer with bold');
  });

  it('prints help, the latest message as JSON and as a Block Kit Builder link', async () => {
    const { text } = await runWith(['help', '/stock WIDGET-9', 'json', 'link']);
    expect(text).toContain('press that button of the latest message with buttons');
    const link = /https:\/\/app\.slack\.com\/block-kit-builder\/#(\S+)/.exec(text)?.[1] ?? '';
    const decoded = JSON.parse(decodeURIComponent(link)) as { blocks: { type: string }[] };
    expect(decoded.blocks.map((block) => block.type)).toEqual(['header', 'section', 'actions']);
    expect(text).toContain('"text": "Results page 1"');
  });

  it('explains lines it cannot run and stops at quit', async () => {
    const { code, text } = await runWith([
      '5',
      '/weather 94070',
      'hello there',
      'quit',
      '/stock X',
    ]);
    expect(code).toBe(0);
    expect(text).toContain('There are no buttons to press yet.');
    expect(text).toContain('/weather is not a command of this app. Try /stock or /contact.');
    expect(text).toContain('Not a command: "hello there"');
    expect(seen.bodies).toHaveLength(0);
  });
});

describe('--once', () => {
  it('runs one command, waits through a "working on it" message, and exits 0', async () => {
    const { code, text } = await runWith([], {
      once: '/stock slow',
      banner: ['Using the sandbox'],
    });
    expect(code).toBe(0);
    expect(text.startsWith('Using the sandbox\n')).toBe(true);
    expect(text.indexOf('Working on it…')).toBeLessThan(text.indexOf('Widgets, page 1'));
    expect(text).toContain('Widgets, page 1');
  });

  it('with json prints the exact Block Kit JSON and nothing else', async () => {
    const { code, text } = await runWith([], {
      once: '/stock WIDGET-9',
      json: true,
      banner: ['Using the sandbox'],
    });
    expect(code).toBe(0);
    const message = JSON.parse(text) as { text: string; blocks: { type: string }[] };
    expect(message.text).toBe('Results page 1');
    expect(message.blocks).toHaveLength(3);
    expect(message.blocks[1]).toMatchObject({
      text: { type: 'mrkdwn', text: '*WIDGET-1* Blue widget &amp; bolt' },
    });
  });

  it('exits 1 when the app fails', async () => {
    const { code, text } = await runWith([], { once: '/stock fail' });
    expect(code).toBe(1);
    expect(text).toContain('The app failed');
  });

  it('exits 2, a usage error, for a command the app does not have', async () => {
    const { code } = await runWith([], { once: '/nope' });
    expect(code).toBe(2);
  });
});
