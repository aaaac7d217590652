/**
 * Find contact's answer, when the ERP is not answering, comes with "Try again" in the app's
 * direct message: pressed there, it asks the same search again and answers in place. A signed
 * view_submission and click through Bolt's HTTP receiver, the fake Slack and the sandbox ERP
 * made to fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIND_CONTACT } from '../../src/views/findContactModal.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import { interactionForm, postToSlackApp, SLACK_DEFAULTS } from '../helpers/slack/index.js';
import { viewSubmissionPayload } from '../helpers/slack/searchPayloads.js';
import { finalAnswer } from './helpers/conversation.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp({ timing: { ackWithinMs: 250, workingAfterMs: 500 } });
});
afterAll(async () => {
  await run?.stop();
});

/** The app's direct message with the user, as Slack delivers a click made in it. */
const APP_DM = 'D0FINDCONTACT';

async function findContact(text: string) {
  const payload = viewSubmissionPayload({
    view: { id: 'V0FINDCONTACT', callback_id: FIND_CONTACT.callbackId },
    values: {
      [FIND_CONTACT.textBlock]: {
        [FIND_CONTACT.textAction]: { type: 'plain_text_input', value: text },
      },
    },
  });
  const before = run.slack.calls('chat.postMessage').length;
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
  });
  expect(reply.status).toBe(200);
  const [posted] = (await run.slack.waitForCalls('chat.postMessage', before + 1)).slice(before);
  if (!posted) throw new Error('no answer in the direct message');
  return posted;
}

describe('Find contact while the ERP is down', () => {
  it('offers Try again, which asks the same search again in place', async () => {
    const code = run.sandbox.data.contacts[3]?.record.code ?? '';
    run.sandbox.setFaults({ errorRate: 1 });
    let failed: Awaited<ReturnType<typeof findContact>>;
    try {
      failed = await findContact(code);
    } finally {
      run.sandbox.setFaults({ errorRate: 0 });
    }
    expect(failed.args.channel).toBe(SLACK_DEFAULTS.userId);
    const message = { blocks: failed.args.blocks as unknown[] };
    expect(textOf(message)).toMatch(/ERP is not answering/);
    const again = buttonsOf(message).find((b) => b.text === 'Try again');
    if (!again) throw new Error('no Try again button');
    expect(JSON.parse(again.value ?? '{}')).toEqual({ v: 1, t: 'rc', f: 'contact', x: code });
    const sent = await run.click(again.action_id, again.value ?? '', {
      channelId: APP_DM,
      isEphemeral: false,
      messageText: String(failed.args.text ?? ''),
    });
    const answered = await finalAnswer(run, sent.responseUrl);
    expect(answered.replace_original).toBe(true);
    expect(textOf(answered)).toContain(code);
    expect(textOf(answered)).not.toMatch(/ERP is not answering/);
  });
});
