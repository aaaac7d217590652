/**
 * Driving a running app the way Slack does (a slash command, a button click) and reading the
 * answer a user finally sees, plus the log lines the spec-gap tests look at.
 */
import { expect } from 'vitest';
import { type RunningApp, SIGNING_SECRET } from '../../helpers/app.js';
import { buttonsOf, type FoundButton, textOf } from '../../helpers/blocks.js';
import {
  blockActionsPayload,
  interactionForm,
  postToSlackApp,
  slashCommandForm,
} from '../../helpers/slack/index.js';

export type Message = { text?: string; blocks?: unknown[]; [key: string]: unknown };
export type LogLine = Record<string, unknown> & { msg?: string };

const ANSWER_WAIT_MS = 8000;
const isWorkingLine = (message: Message) => textOf(message).includes(':hourglass_flowing_sand:');

/** The answer a user finally sees: on the acknowledgement, else the last response_url post. */
export async function finalAnswer(
  run: RunningApp,
  responseUrl: string,
  ack?: Message,
): Promise<Message> {
  if (ack?.blocks && !isWorkingLine(ack)) return ack;
  for (let count = 1; ; count += 1) {
    const posts = await run.slack.waitForResponses(responseUrl, count, ANSWER_WAIT_MS);
    const last = posts.at(-1)?.body ?? {};
    if (!isWorkingLine(last)) return last;
  }
}

/** Sends a signed slash command and returns the answer (the ack within `ACK_TIMEOUT_MS`). */
export async function ask(run: RunningApp, command: string, text: string): Promise<Message> {
  const responseUrl = run.slack.responseUrl();
  const reply = await postToSlackApp(
    run.eventsUrl,
    slashCommandForm({ command, text, response_url: responseUrl }),
    { signingSecret: SIGNING_SECRET },
  );
  expect(reply.status).toBe(200);
  return finalAnswer(run, responseUrl, reply.json as Message | undefined);
}

/** Clicks a button as a signed block_actions payload and returns the answer. */
export async function click(run: RunningApp, button: FoundButton): Promise<Message> {
  const responseUrl = run.slack.responseUrl();
  const reply = await postToSlackApp(
    run.eventsUrl,
    interactionForm(
      blockActionsPayload({ actionId: button.action_id, value: button.value ?? '', responseUrl }),
    ),
    { signingSecret: SIGNING_SECRET },
  );
  expect(reply.status).toBe(200);
  return finalAnswer(run, responseUrl);
}

/** The list header ("*Items matching* “widget” · 1–10 of 279"). */
export function listHeader(message: Message): string {
  const header = textOf({ blocks: message.blocks })
    .split('\n')
    .find((line) => /^\*(Items|Contacts) matching\*/.test(line));
  if (!header) throw new Error(`no list header in: ${textOf(message)}`);
  return header;
}

export const hasButton = (message: Message, word: string) =>
  buttonsOf(message).some((b) => b.text.includes(word));

export const parsedLog = (run: RunningApp): LogLine[] =>
  run.logLines.map((line) => JSON.parse(line) as LogLine);

export const driftWarnings = (run: RunningApp) =>
  parsedLog(run).filter((line) => line.msg === 'ERP schema drift');

/** Sandbox records are typed to the spec's documented values; tests bend them on purpose. */
export const bend = <T>(record: T) => record as unknown as Record<string, unknown>;
