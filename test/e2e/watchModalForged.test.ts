/**
 * The Watch… modal's submission is checked field by field: a forged view_submission (signed,
 * through Bolt's HTTP receiver) with an empty, fractional, negative or oversized threshold, or
 * no direction, gets the modal's field errors and never a watch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCH_MODAL } from '../../src/views/watchModal.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { interactionForm, postToSlackApp } from '../helpers/slack/index.js';
import { viewSubmissionPayload } from '../helpers/slack/searchPayloads.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});
afterAll(async () => {
  await run?.stop();
});

/** A conversation of its own per case: the embedded database is shared by the test files of one process. */
function freshChannel(): string {
  return `C${Math.random().toString(36).slice(2, 12).toUpperCase()}`;
}

function submission(channel: string, threshold: unknown, direction: unknown = { value: 'below' }) {
  return viewSubmissionPayload({
    view: {
      id: `V${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
      callback_id: WATCH_MODAL.callbackId,
      private_metadata: JSON.stringify({ v: 1, t: 'wo', c: 'WIDGET-9' }),
    },
    values: {
      [WATCH_MODAL.directionBlock]: {
        [WATCH_MODAL.directionAction]: { type: 'radio_buttons', selected_option: direction },
      },
      [WATCH_MODAL.thresholdBlock]: {
        [WATCH_MODAL.thresholdAction]: { type: 'number_input', value: threshold },
      },
      [WATCH_MODAL.channelBlock]: {
        [WATCH_MODAL.channelAction]: {
          type: 'conversations_select',
          selected_conversation: channel,
        },
      },
    },
  });
}

async function submit(payload: object) {
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
  });
  expect(reply.status).toBe(200);
  return reply.json as { response_action?: string; errors?: Record<string, string> } | undefined;
}

describe('a forged Watch… submission', () => {
  it.each([
    ['empty (null)', null],
    ['blank', '  '],
    ['fractional', '2.5'],
    ['negative', '-1'],
    ['a number in disguise', '1e3'],
    ['beyond a safe integer', '9999999999999999'],
    ['not a string', 5],
  ])('threshold %s: a field error on the threshold, and no watch', async (_, threshold) => {
    const channel = freshChannel();
    const ack = await submit(submission(channel, threshold));
    expect(ack?.response_action).toBe('errors');
    expect(Object.keys(ack?.errors ?? {})).toEqual([WATCH_MODAL.thresholdBlock]);
    expect((await run.services.watches.service.listChannel(channel)).watches).toEqual([]);
  });

  it('no direction: a field error on the direction, and no watch', async () => {
    const channel = freshChannel();
    const ack = await submit(submission(channel, '20', null));
    expect(ack?.response_action).toBe('errors');
    expect(Object.keys(ack?.errors ?? {})).toEqual([WATCH_MODAL.directionBlock]);
    expect((await run.services.watches.service.listChannel(channel)).watches).toEqual([]);
  });

  it('a whole number is taken: the modal closes (no field errors)', async () => {
    const ack = await submit(submission(freshChannel(), '20'));
    expect(ack?.response_action).toBeUndefined();
  });
});
