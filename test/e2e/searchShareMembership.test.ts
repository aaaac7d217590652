/**
 * The search modal's Share posts only into a conversation the person is a member of
 * (conversations.members on the fake Slack), through Bolt's real HTTP receiver with signed
 * requests: refused privately where they are not, posted where they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_MODAL } from '../../src/views/watchModal.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { interactionForm, postToSlackApp } from '../helpers/slack/index.js';
import { SLACK_DEFAULTS } from '../helpers/slack/payloads.js';
import { viewSubmissionPayload } from '../helpers/slack/searchPayloads.js';
import { searchShareSubmission, submitSearchShare } from './helpers/searchShare.js';

const PERSON = SLACK_DEFAULTS.userId;
const BOT = SLACK_DEFAULTS.botUserId;
const THEIRS = 'C0THEIRS01';
const NOT_THEIRS = 'G0NOTTHEIR';
const WAIT_MS = 8000;

describe('search modal Share into a conversation the person chose', () => {
  let run: RunningApp;
  let code: string;
  beforeAll(async () => {
    run = await startApp({
      slack: {
        channels: {
          [THEIRS]: { members: [PERSON, BOT] },
          [NOT_THEIRS]: { is_private: true, members: ['U0SOMEONE', BOT] },
        },
      },
      logLevel: 'info',
    });
    code = run.sandbox.examples().itemCodes[0] ?? 'WIDGET-9';
  });
  afterAll(async () => {
    await run?.stop();
  });

  /** The direct messages the app sent the person (chat.postMessage to their id). */
  const dms = () => run.slack.calls('chat.postMessage').filter((c) => c.args.channel === PERSON);

  it('is refused where the person is not a member: nothing posted there, told privately why', async () => {
    const { payload, responseUrl } = searchShareSubmission(run, { code, channel: NOT_THEIRS });
    await submitSearchShare(run, payload);
    const [refusal] = await run.slack.waitForCalls('chat.postMessage', 1, WAIT_MS);
    expect(refusal?.args.channel).toBe(PERSON);
    expect(textOf(refusal?.args ?? {})).toContain('not a member of that conversation');
    // Nothing went into the conversation, by either way the app could post there.
    expect(run.slack.responses(responseUrl)).toEqual([]);
    expect(
      run.slack.calls('chat.postMessage').filter((c) => c.args.channel === NOT_THEIRS),
    ).toEqual([]);
    const asked = run.slack.calls('conversations.members').map((c) => c.args.channel);
    expect(asked).toContain(NOT_THEIRS);
  });

  it('is posted where the person is a member, with Shared by and Remove', async () => {
    const before = dms().length;
    const { payload, responseUrl } = searchShareSubmission(run, { code, channel: THEIRS });
    await submitSearchShare(run, payload);
    const [posted] = await run.slack.waitForResponses(responseUrl, 1, WAIT_MS);
    expect(posted?.body.response_type).toBe('in_channel');
    expect(textOf(posted?.body ?? {})).toContain(`Shared by <@${PERSON}>`);
    expect(JSON.stringify(posted?.body)).toContain('Remove');
    expect(dms()).toHaveLength(before);
  });

  it("reads a conversation's members once for the share and the Watch… modal alike", async () => {
    const [posts, before] = [run.slack.calls('chat.postMessage').length, dms().length];
    const payload = viewSubmissionPayload({
      view: {
        id: 'V0WATCHSHARE',
        callback_id: WATCH_MODAL.callbackId,
        private_metadata: JSON.stringify({ v: 1, t: 'wo', c: code }),
      },
      values: {
        [WATCH_MODAL.directionBlock]: {
          [WATCH_MODAL.directionAction]: {
            type: 'radio_buttons',
            selected_option: { value: 'below' },
          },
        },
        [WATCH_MODAL.thresholdBlock]: {
          [WATCH_MODAL.thresholdAction]: { type: 'number_input', value: '5' },
        },
        [WATCH_MODAL.channelBlock]: {
          [WATCH_MODAL.channelAction]: {
            type: 'conversations_select',
            selected_conversation: THEIRS,
          },
        },
      },
    });
    const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
      signingSecret: SIGNING_SECRET,
    });
    expect(reply.status).toBe(200);
    // The watch is told in the channel, then the modal answers the person directly.
    await run.slack.waitForCalls('chat.postMessage', posts + 2, WAIT_MS);
    expect(dms().length).toBe(before + 1);
    expect(textOf(dms().at(-1)?.args ?? {})).toContain('Watch set');
    const asked = run.slack.calls('conversations.members').filter((c) => c.args.channel === THEIRS);
    expect(asked).toHaveLength(1);
  });
});
