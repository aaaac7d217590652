/**
 * Tool calls share the ERP's budget and the fair queue with everything else: one person's
 * burst of 60 check_stock calls (60 codes, so no cache can answer them) against an ERP that
 * allows 20 getItem calls a minute causes no 429, and another person's /stock is still
 * answered with its card, from the share the fair queue keeps for everyone else.
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { eventually } from '../helpers/eventually.js';
import { SLACK_DEFAULTS, signSlackRequest } from '../helpers/slack/index.js';

const LIMIT = 20;
const CALLS = 60;
const BURSTER = 'UBURST01';
const OTHER = SLACK_DEFAULTS.userId;

let run: RunningApp;
let agent: Agent;

beforeAll(async () => {
  run = await startApp({
    sandbox: { limits: { getItem: LIMIT } },
    // A lookup that cannot get budget soon says "busy" instead of waiting a minute.
    env: { ERP_GET_LIMIT_PER_MINUTE: String(LIMIT), QUEUE_MAX_WAIT_SECONDS: '3' },
    slack: { users: { [BURSTER]: {} } },
    logLevel: 'warn',
  });
  agent = new Agent({ connections: 32 });
});
afterAll(async () => {
  await agent?.close();
  await run?.stop();
});

/** One signed tools/call, as Slack's MCP client sends it (stateless: no initialize needed). */
async function toolCall(id: number, code: string) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'check_stock',
      arguments: { code },
      _meta: { slack: { user_id: BURSTER, team_id: SLACK_DEFAULTS.teamId } },
    },
  });
  const reply = await request(`${run.baseUrl}/mcp`, {
    method: 'POST',
    dispatcher: agent,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...signSlackRequest(SIGNING_SECRET, body),
    },
    body,
  });
  const json = (await reply.body.json()) as { result?: { isError?: boolean } };
  return { status: reply.statusCode, isError: json.result?.isError === true };
}

describe('60 tool calls at once', () => {
  it('cause no 429 and leave another person’s /stock its card', async () => {
    const codes = run.sandbox.data.items
      .map((item) => item.record.code)
      .filter((code) => code !== 'WIDGET-9')
      .slice(0, CALLS);
    expect(codes).toHaveLength(CALLS);
    const burst = Promise.all(codes.map((code, i) => toolCall(i + 1, code)));
    // The burster holds its share of the minute before the other person asks.
    await eventually(() => expect(run.sandbox.stats().requests.getItem ?? 0).toBeGreaterThan(10));
    const { ack, responseUrl } = await run.command('/stock', 'WIDGET-9', { user_id: OTHER });
    const card = textOf(ack ?? {}).includes('WIDGET-9')
      ? (ack ?? {})
      : ((await run.slack.waitForResponses(responseUrl, 1))[0]?.body ?? {});
    expect(textOf(card)).toContain('WIDGET-9');
    expect(textOf(card)).not.toMatch(/busy/i);
    const results = await burst;
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Some answered, the rest told "busy" by the app: the ERP itself refused none.
    expect(results.some((r) => !r.isError)).toBe(true);
    expect(results.filter((r) => r.isError).length).toBeGreaterThanOrEqual(CALLS - LIMIT);
    expect(run.sandbox.stats().byStatus['429'] ?? 0).toBe(0);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBeLessThanOrEqual(LIMIT);
  }, 60_000);
});
