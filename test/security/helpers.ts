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

/** The next real command over Socket Mode: `/stock WIDGET-9`, and the text of its answer. */
export async function stockOverSocket(run: RunningApp, timeoutMs?: number): Promise<string> {
  const ack = await run.slack.sendEnvelope(
    'slash_commands',
    slashCommandPayload({
      command: '/stock',
      text: 'WIDGET-9',
      response_url: run.slack.responseUrl(),
    }),
    timeoutMs,
  );
  return textOf((ack.payload ?? {}) as object);
}
