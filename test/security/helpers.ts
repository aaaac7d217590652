import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { RunningApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { slashCommandPayload } from '../helpers/slack/index.js';

/**
 * Fails each test of the calling file in which a promise rejection reached the process
 * unhandled: what would have ended `npm start` (Node's default) must not happen at all.
 */
export function failOnEscapedRejections(): void {
  const escaped: unknown[] = [];
  const onRejection = (reason: unknown) => escaped.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
  });
  afterEach(() => {
    expect(escaped).toEqual([]);
  });
}

/**
 * The text of a command's answer: on the acknowledgement, or, when the app acknowledged first
 * (empty, or "looking up…", as it does when the answer is slow on a busy machine), the first
 * post to the response_url that is not progress. The caller's test timeout bounds the wait.
 */
export async function answerText(
  run: RunningApp,
  ack: object | undefined,
  responseUrl: string,
  timeoutMs = ANSWER_WAIT_MS,
): Promise<string> {
  const acked = textOf(ack ?? {});
  if (acked !== '' && !acked.includes(PROGRESS)) return acked;
  for (let count = 1; ; count += 1) {
    const posts = await run.slack.waitForResponses(responseUrl, count, timeoutMs);
    const text = textOf(posts.at(-1)?.body ?? {});
    if (!text.includes(PROGRESS)) return text;
  }
}

/** The next real command over Socket Mode: `/stock WIDGET-9`, and the text of its answer. */
export async function stockOverSocket(
  run: RunningApp,
  timeoutMs = ANSWER_WAIT_MS,
): Promise<string> {
  const responseUrl = run.slack.responseUrl();
  const ack = await run.slack.sendEnvelope(
    'slash_commands',
    slashCommandPayload({ command: '/stock', text: 'WIDGET-9', response_url: responseUrl }),
    timeoutMs,
  );
  return answerText(run, (ack.payload ?? {}) as object, responseUrl, timeoutMs);
}

/** The emoji every "still working" line starts with (views/progress.ts). */
const PROGRESS = ':hourglass_flowing_sand:';

/** Longer than a test's timeout: that timeout, not this wait, bounds a slow answer. */
const ANSWER_WAIT_MS = 60_000;
