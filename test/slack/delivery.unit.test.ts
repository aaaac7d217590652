/**
 * The timing rules of delivery.ts on a fake clock: an answer ready in time rides on the
 * acknowledgement; a slow one gets an empty acknowledgement at `ackWithinMs`, one working line
 * at `workingAfterMs`, then the answer; a slow click replaces its message twice.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_TIMING,
  deliverClickAnswer,
  deliverCommandAnswer,
} from '../../src/slack/delivery.js';
import type { SlackMessage } from '../../src/views/message.js';
import { silentLogger } from '../lookup/fakes.js';

const ANSWER: SlackMessage = { text: 'WIDGET-9: 12 available', blocks: [] };
const WORKING: SlackMessage = { text: 'Looking up WIDGET-9…', blocks: [] };

/** An answer the test settles when it likes. */
function pending() {
  let settle: (message: SlackMessage) => void = () => {};
  const answer = new Promise<SlackMessage>((resolve) => {
    settle = resolve;
  });
  return { answer, settle };
}

/** Every acknowledgement and response, with the fake clock's time it was sent at. */
function recorder() {
  const sent: Array<{ via: 'ack' | 'respond'; at: number; text: string | undefined }> = [];
  const messages: RespondArguments[] = [];
  const started = Date.now();
  const record = (via: 'ack' | 'respond', message?: RespondArguments | string) => {
    const text = typeof message === 'string' ? message : message?.text;
    sent.push({ via, at: Date.now() - started, text });
    if (message !== undefined && typeof message !== 'string') messages.push(message);
  };
  const ack = async (message?: RespondArguments) => record('ack', message);
  // Only the call matters here, not the HTTP response Bolt's own function resolves with.
  const respond = (async (message: RespondArguments | string) =>
    record('respond', message)) as unknown as RespondFn;
  return { sent, messages, ack, respond };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a slash command', () => {
  it('carries an answer ready in time on the acknowledgement, and sends nothing else', async () => {
    const { sent, ack, respond } = recorder();
    const { answer, settle } = pending();
    const delivered = deliverCommandAnswer({
      ack,
      respond,
      answer,
      working: () => WORKING,
      knownToBeSlow: () => false,
      timing: DEFAULT_TIMING,
      logger: silentLogger,
    });
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMING.ackWithinMs - 1);
    settle(ANSWER);
    await delivered;
    expect(sent).toEqual([{ via: 'ack', at: DEFAULT_TIMING.ackWithinMs - 1, text: ANSWER.text }]);
  });

  it('acknowledges a slow answer empty in time, says it is working once, then answers', async () => {
    const { sent, ack, respond } = recorder();
    const { answer, settle } = pending();
    const delivered = deliverCommandAnswer({
      ack,
      respond,
      answer,
      working: () => WORKING,
      knownToBeSlow: () => false,
      timing: DEFAULT_TIMING,
      logger: silentLogger,
    });
    await vi.advanceTimersByTimeAsync(10_000);
    settle(ANSWER);
    await delivered;
    expect(sent).toEqual([
      { via: 'ack', at: DEFAULT_TIMING.ackWithinMs, text: undefined },
      { via: 'respond', at: DEFAULT_TIMING.workingAfterMs, text: WORKING.text },
      { via: 'respond', at: 10_000, text: ANSWER.text },
    ]);
  });

  it('sends no working line for an answer that comes between the two deadlines', async () => {
    const { sent, ack, respond } = recorder();
    const { answer, settle } = pending();
    const delivered = deliverCommandAnswer({
      ack,
      respond,
      answer,
      working: () => WORKING,
      knownToBeSlow: () => false,
      timing: DEFAULT_TIMING,
      logger: silentLogger,
    });
    await vi.advanceTimersByTimeAsync(DEFAULT_TIMING.workingAfterMs - 1);
    settle(ANSWER);
    await delivered;
    expect(sent.map((s) => [s.via, s.text])).toEqual([
      ['ack', undefined],
      ['respond', ANSWER.text],
    ]);
  });

  it('puts the working line on the acknowledgement when the wait is known to be long', async () => {
    const { sent, ack, respond } = recorder();
    const { answer, settle } = pending();
    const delivered = deliverCommandAnswer({
      ack,
      respond,
      answer,
      working: () => WORKING,
      knownToBeSlow: () => true,
      timing: DEFAULT_TIMING,
      logger: silentLogger,
    });
    await vi.advanceTimersByTimeAsync(5_000);
    settle(ANSWER);
    await delivered;
    expect(sent).toEqual([
      { via: 'ack', at: DEFAULT_TIMING.ackWithinMs, text: WORKING.text },
      { via: 'respond', at: 5_000, text: ANSWER.text },
    ]);
  });
});

describe('a click', () => {
  it('replaces its message with the working line, then with the answer', async () => {
    const { sent, messages, respond } = recorder();
    const { answer, settle } = pending();
    const delivered = deliverClickAnswer({
      respond,
      answer,
      working: () => WORKING,
      mode: 'replace',
      timing: DEFAULT_TIMING,
      logger: silentLogger,
    });
    await vi.advanceTimersByTimeAsync(4_000);
    settle(ANSWER);
    await delivered;
    expect(sent).toEqual([
      { via: 'respond', at: DEFAULT_TIMING.workingAfterMs, text: WORKING.text },
      { via: 'respond', at: 4_000, text: ANSWER.text },
    ]);
    expect(messages.map((message) => message.replace_original)).toEqual([true, true]);
  });

  it('answers a quick click once, with no working line', async () => {
    const { sent, respond } = recorder();
    const delivered = deliverClickAnswer({
      respond,
      answer: Promise.resolve(ANSWER),
      working: () => WORKING,
      mode: 'new',
      timing: DEFAULT_TIMING,
      logger: silentLogger,
    });
    await delivered;
    expect(sent).toEqual([{ via: 'respond', at: 0, text: ANSWER.text }]);
  });
});
