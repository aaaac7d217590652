/**
 * Did you mean, asked in words: a sentence about a code that matches nothing offers the
 * nearest known codes as buttons asking the same quantity and branch ("WIDGET-9: 20 at
 * perth?"), as `/stock WIDGT-9 20 perth` does; pressing one answers that question. Through
 * Bolt's HTTP receiver with signed events and clicks, the fake Slack and the sandbox ERP; and
 * the reader's own question back (a complete index) draws the same buttons.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notSureMessage } from '../../src/views/words.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import { ask, finalAnswer } from './helpers/conversation.js';
import { DM_CHANNEL, directMessageEvent, sendEvent } from './helpers/words.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});
afterAll(async () => {
  await run?.stop();
});

describe('Did you mean, in words', () => {
  it('a direct message about WIDGT-9 offers WIDGET-9 with the same quantity and branch', async () => {
    // Looked up once, so the index knows the code the typo is near.
    await ask(run, '/stock', 'WIDGET-9');
    const before = run.slack.calls('chat.postMessage').length;
    await sendEvent(run, directMessageEvent('20 x WIDGT-9 for perth'));
    const [posted] = (await run.slack.waitForCalls('chat.postMessage', before + 1)).slice(before);
    expect(posted?.args.channel).toBe(DM_CHANNEL);
    const message = { blocks: posted?.args.blocks as unknown[] };
    expect(textOf(message)).toContain('Did you mean `WIDGET-9`');
    const offered = buttonsOf(message).find((b) => b.text === 'WIDGET-9: 20 at perth?');
    if (!offered) throw new Error(`no WIDGET-9: 20 at perth? in ${textOf(message)}`);
    expect(JSON.parse(offered.value ?? '{}')).toMatchObject({
      r: { c: 'WIDGET-9' },
      q: 20,
      b: ['perth'],
    });
    const sent = await run.click(offered.action_id, offered.value ?? '', {
      channelId: DM_CHANNEL,
      isEphemeral: false,
      messageText: String(posted?.args.text ?? ''),
    });
    const verdict = await finalAnswer(run, sent.responseUrl);
    expect(verdict.text).toMatch(/^(No|Yes), 20 of WIDGET-9 at Perth/);
  });

  it('the reader’s question back asks the same quantity and branch of each candidate', () => {
    const message = notSureMessage({
      reason: 'near_codes',
      typed: 'WIDGT-9',
      candidates: [
        { code: 'WIDGET-9', description: 'Widget' },
        { code: 'WIDGET-90', description: 'Widget' },
      ],
      quantity: 20,
      branchWords: ['perth'],
    });
    const buttons = buttonsOf(message);
    expect(buttons.map((b) => b.text)).toEqual([
      'WIDGET-9: 20 at perth?',
      'WIDGET-90: 20 at perth?',
    ]);
    expect(JSON.parse(buttons[1]?.value ?? '{}')).toMatchObject({
      r: { c: 'WIDGET-90' },
      q: 20,
      b: ['perth'],
    });
    // Nothing asked but the item: a plain View.
    const plain = notSureMessage({
      reason: 'several_items',
      typed: 'blue widget',
      candidates: [{ code: 'WIDGET-9', description: 'Blue widget' }],
      branchWords: [],
    });
    expect(buttonsOf(plain).map((b) => b.text)).toEqual(['View WIDGET-9']);
  });
});
