/**
 * Events as Slack sends them for asking in words: a direct message (`message.im`), a mention
 * (`app_mention`), the assistant panel's `assistant_thread_started` and thread messages, each
 * in its signed `event_callback` envelope; and what the app posted back through the Web API.
 */
import { type RunningApp, SIGNING_SECRET } from '../../helpers/app.js';
import { textOf } from '../../helpers/blocks.js';
import { postToSlackApp, SLACK_DEFAULTS, slackTsNow } from '../../helpers/slack/index.js';
import { eventEnvelope } from '../../helpers/slack/searchPayloads.js';

export const DM_CHANNEL = 'D0WORDSDM';
export const CHANNEL = 'C0WORDSCH';

let counter = 0;
/** A fresh message timestamp (unique per test run). */
export function nextTs(): string {
  counter += 1;
  const [seconds] = slackTsNow().split('.');
  return `${seconds}.${String(counter).padStart(6, '0')}`;
}

export function directMessageEvent(text: string, extra: Record<string, unknown> = {}) {
  return {
    type: 'message',
    channel: DM_CHANNEL,
    channel_type: 'im',
    user: SLACK_DEFAULTS.userId,
    text,
    ts: nextTs(),
    team: SLACK_DEFAULTS.teamId,
    client_msg_id: `msg-${counter}`,
    ...extra,
  };
}

export function mentionEvent(text: string, extra: Record<string, unknown> = {}) {
  return {
    type: 'app_mention',
    channel: CHANNEL,
    user: SLACK_DEFAULTS.userId,
    text: `<@${SLACK_DEFAULTS.botUserId}> ${text}`,
    ts: nextTs(),
    team: SLACK_DEFAULTS.teamId,
    ...extra,
  };
}

/** The assistant panel opened on a new thread in the app's direct message. */
export function assistantThreadStartedEvent(threadTs: string) {
  return {
    type: 'assistant_thread_started',
    assistant_thread: {
      user_id: SLACK_DEFAULTS.userId,
      channel_id: DM_CHANNEL,
      thread_ts: threadTs,
      context: {},
    },
  };
}

/** POSTs a signed event callback over HTTP, as Slack does (JSON body). */
export async function sendEvent(
  run: RunningApp,
  event: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const reply = await postToSlackApp(run.eventsUrl, JSON.stringify(eventEnvelope(event)), {
    signingSecret: SIGNING_SECRET,
    contentType: 'application/json',
    headers,
  });
  return reply;
}

/** Every ERP call the sandbox has answered so far. */
export const erpCalls = (run: RunningApp) =>
  Object.values(run.sandbox.stats().requests).reduce((sum, n) => sum + (n ?? 0), 0);

export interface Posted {
  method: string;
  channel: unknown;
  thread_ts: unknown;
  user: unknown;
  text: string;
}

/** What the app posted (messages and ephemeral messages), oldest first. */
export function posted(run: RunningApp): Posted[] {
  return run.slack
    .calls()
    .filter((c) => ['chat.postMessage', 'chat.postEphemeral', 'chat.update'].includes(c.method))
    .map((c) => ({
      method: c.method,
      channel: c.args.channel,
      thread_ts: c.args.thread_ts,
      user: c.args.user,
      text: `${String(c.args.text ?? '')}\n${textOf({ blocks: c.args.blocks as unknown[] })}`,
    }));
}
