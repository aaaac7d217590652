/**
 * The agent surface (`agent_view`), as Slack documents it: opening the Messages tab
 * (`app_home_opened` with `tab: 'messages'`) sets the suggested prompts for the tab, with no
 * thread; a direct message gets a status on itself while its answer is worked out, cleared
 * once the answer is posted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../helpers/app.js';
import { DM_CHANNEL, directMessageEvent, posted, sendEvent } from './helpers/words.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});
afterAll(async () => {
  await run.stop();
});

describe('the Messages tab on agent_view', () => {
  it('opened: up to four suggested prompts, set for the tab itself (no thread_ts)', async () => {
    const reply = await sendEvent(run, {
      type: 'app_home_opened',
      user: 'U0000000000',
      channel: DM_CHANNEL,
      tab: 'messages',
      event_ts: '1730000000.000100',
    });
    expect(reply.status).toBe(200);
    const [call] = await run.slack.waitForCalls('assistant.threads.setSuggestedPrompts', 1);
    expect(call?.reply).toMatchObject({ ok: true });
    expect(call?.args.channel_id).toBe(DM_CHANNEL);
    expect(call?.args.thread_ts).toBeUndefined();
    const prompts = call?.args.prompts;
    const list = typeof prompts === 'string' ? JSON.parse(prompts) : prompts;
    expect(list.length).toBeGreaterThanOrEqual(1);
    expect(list.length).toBeLessThanOrEqual(4);
    // The Home tab is not published for the Messages tab.
    expect(run.slack.calls('views.publish')).toHaveLength(0);
  });

  it('a direct message: a status on it while it is answered, then cleared', async () => {
    const before = posted(run).length;
    const message = directMessageEvent('how many WIDGET-9 in sydney');
    await sendEvent(run, message);
    const [working, cleared] = await run.slack.waitForCalls('assistant.threads.setStatus', 2);
    expect(working?.args).toMatchObject({ channel_id: DM_CHANNEL, thread_ts: message.ts });
    expect(String(working?.args.status)).toContain('WIDGET-9');
    expect(cleared?.args).toMatchObject({ channel_id: DM_CHANNEL, status: '' });
    const answers = posted(run).slice(before);
    expect(answers.some((a) => String(a.text).includes('Sydney'))).toBe(true);
  });
});
