/**
 * The MCP server for Slack's agent, end to end: the SDK's own client over real HTTP, each
 * request signed as Slack signs it, through Bolt's HTTP receiver and its guard; the sandbox ERP
 * over HTTP; a fake Slack answering users.info.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { SLACK_DEFAULTS, signSlackRequest } from '../helpers/slack/index.js';

type ToolResult = {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
  _meta?: { slack?: { blocks?: unknown[] } };
};

const MEMBER = SLACK_DEFAULTS.userId;
const GUEST = 'UGUEST01';
const TEAM = SLACK_DEFAULTS.teamId;

let run: RunningApp;

beforeAll(async () => {
  run = await startApp({ slack: { users: { [GUEST]: { is_restricted: true } } } });
});
afterAll(async () => {
  await run?.stop();
});

/** fetch that signs each body as Slack does, as Slack's MCP client sends its requests. */
function signingFetch(options: { unsigned?: boolean } = {}): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : '';
    if (!options.unsigned) {
      for (const [name, value] of Object.entries(signSlackRequest(SIGNING_SECRET, body))) {
        headers.set(name, value);
      }
    }
    return fetch(input, { ...init, headers });
  };
}

async function connect(): Promise<Client> {
  const client = new Client({ name: 'slackbot-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${run.baseUrl}/mcp`), {
    fetch: signingFetch(),
  });
  await client.connect(transport);
  return client;
}

async function call(
  name: string,
  args: Record<string, unknown>,
  user: { user_id: string; team_id: string } | null = { user_id: MEMBER, team_id: TEAM },
): Promise<ToolResult> {
  const client = await connect();
  try {
    const result = await client.callTool({
      name,
      arguments: args,
      ...(user === null ? {} : { _meta: { slack: user } }),
    });
    return result as ToolResult;
  } finally {
    await client.close();
  }
}

const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');

describe('POST /mcp', () => {
  it('answers an unsigned or stale request 401, before any ERP call', async () => {
    const before = run.sandbox.stats().requests.getItem ?? 0;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'check_stock',
        arguments: { code: 'WIDGET-9' },
        _meta: { slack: { user_id: MEMBER, team_id: TEAM } },
      },
    });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const unsigned = await request(`${run.baseUrl}/mcp`, { method: 'POST', headers, body });
    const stale = await request(`${run.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        ...headers,
        ...signSlackRequest(SIGNING_SECRET, body, Math.floor(Date.now() / 1000) - 600),
      },
      body,
    });
    const forged = await request(`${run.baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...headers, ...signSlackRequest('0'.repeat(32), body) },
      body,
    });
    await Promise.all([unsigned, stale, forged].map((r) => r.body.dump()));
    expect([unsigned.statusCode, stale.statusCode, forged.statusCode]).toEqual([401, 401, 401]);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before);
  });

  it('refuses the SDK client too when it does not sign', async () => {
    const client = new Client({ name: 'unsigned', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${run.baseUrl}/mcp`), {
      fetch: signingFetch({ unsigned: true }),
    });
    await expect(client.connect(transport)).rejects.toThrow();
  });

  it('lists four read-only tools after a signed initialize, each declaring Block Kit', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'check_stock',
        'find_contact',
        'find_items',
        'list_watches',
      ]);
      for (const tool of tools) {
        expect(tool.annotations?.readOnlyHint).toBe(true);
        expect(tool._meta).toEqual({ slack: { supportsBlockKit: true } });
      }
      const check = tools.find((t) => t.name === 'check_stock');
      expect(Object.keys(check?.inputSchema.properties ?? {}).sort()).toEqual([
        'branch',
        'code',
        'quantity',
      ]);
    } finally {
      await client.close();
    }
  });

  it('gives a member the verdict /stock gives, with the shared card as blocks', async () => {
    const result = await call('check_stock', { code: 'WIDGET-9', quantity: 50, branch: 'perth' });
    expect(result.isError).toBeUndefined();
    const [verdict] = textOf(result).split('\n');
    const { ack } = await run.command('/stock', 'WIDGET-9 50 perth');
    expect(verdict).toMatch(/^(Yes|No), 50 of WIDGET-9 at Perth: /);
    expect(ack?.text?.startsWith(verdict ?? '-')).toBe(true);
    const blocks = JSON.stringify(result._meta?.slack?.blocks ?? []);
    expect(blocks).toContain('WIDGET-9');
    // The shared form: a View button opens a private copy; no Share or Refresh.
    expect(blocks).not.toContain('Share to channel');
    expect(textOf(result)).not.toMatch(/cost/i);
  });

  it('after a No, gives the plan: the branch lines, then the options, never cost', async () => {
    const result = await call('check_stock', { code: 'WIDGET-9', quantity: 40, branch: 'sydney' });
    const text = textOf(result);
    expect(text.split('\n')[0]).toMatch(/^No, 40 of WIDGET-9 at Sydney: /);
    const options = text.slice(text.indexOf('Options to fill it:'));
    expect(options.split('\n').slice(0, 3)).toEqual([
      'Options to fill it:',
      '- Split: 37 Sydney + 3 Brisbane',
      '- 37 now; 20 on order, no date',
    ]);
    expect(text).not.toMatch(/cost|@|909/i);
    // A Yes that one branch fills has no options.
    const yes = textOf(
      await call('check_stock', { code: 'WIDGET-9', quantity: 5, branch: 'sydney' }),
    );
    expect(yes).not.toContain('Options to fill it');
  });

  it('says a branch the item does not have, never answering company-wide', async () => {
    const result = await call('check_stock', { code: 'WIDGET-9', quantity: 5, branch: 'atlantis' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/“atlantis” is not a branch of WIDGET-9/);
  });

  it('gives a guest what a guest’s command gives: the same verdict, no internal figures', async () => {
    const guest = await call(
      'check_stock',
      { code: 'WIDGET-9', quantity: 50, branch: 'perth' },
      { user_id: GUEST, team_id: TEAM },
    );
    const member = await call('check_stock', { code: 'WIDGET-9', quantity: 50, branch: 'perth' });
    const { ack } = await run.command('/stock', 'WIDGET-9 50 perth', { user_id: GUEST });
    const [verdict] = textOf(guest).split('\n');
    expect(ack?.text?.startsWith(verdict ?? '-')).toBe(true);
    expect(textOf(guest)).toBe(textOf(member));
    expect(JSON.stringify(guest._meta?.slack?.blocks)).not.toMatch(/cost/i);
  });

  it('refuses a guest whom the access list leaves out, as /stock does', async () => {
    const listed = await startApp({
      erp: run.sandbox,
      env: { STOCK_ALLOWED_USERS: MEMBER },
      slack: { users: { [GUEST]: { is_restricted: true } } },
    });
    try {
      const client = new Client({ name: 'slackbot-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${listed.baseUrl}/mcp`), {
          fetch: signingFetch(),
        }),
      );
      const result = (await client.callTool({
        name: 'check_stock',
        arguments: { code: 'WIDGET-9' },
        _meta: { slack: { user_id: GUEST, team_id: TEAM } },
      })) as ToolResult;
      await client.close();
      const { ack } = await listed.command('/stock', 'WIDGET-9', { user_id: GUEST });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(ack?.text);
    } finally {
      await listed.stop();
    }
  });

  it('finds a contact: names and roles, never a phone, an e-mail or terms', async () => {
    const result = await call('find_contact', { account: 'ACME01' });
    const text = textOf(result);
    const acme = run.sandbox.data.contacts.find((c) => c.record.code === 'ACME01')?.record;
    expect(acme).toBeDefined();
    expect(text).toContain('ACME01');
    for (const person of acme?.addressbook ?? []) {
      if (person.name) expect(text).toContain(person.name);
      if (person.role) expect(text).toContain(person.role);
      for (const reach of [person.telephone, person.mobile, person.email, person.email2]) {
        if (reach) expect(text).not.toContain(reach);
      }
    }
    for (const reach of [acme?.telephone, acme?.email])
      if (reach) expect(text).not.toContain(reach);
    expect(text).not.toMatch(/credit limit|discount|terms:|stop credit/i);
    expect(text).not.toMatch(/@[a-z0-9-]+\.[a-z]/i);
    const blocks = JSON.stringify(result._meta?.slack?.blocks ?? []);
    for (const person of acme?.addressbook ?? []) {
      if (person.email) expect(blocks).not.toContain(person.email);
    }
  });

  it('finds items by words: codes, descriptions and what is available', async () => {
    const result = await call('find_items', { words: 'widget' });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toMatch(/WIDGET-9: .+; [\d,.]+ available/);
  });

  it('lists the person’s own watches', async () => {
    // A person of this test's own: the run's data directory keeps the watches earlier files
    // in this worker made for the default member.
    const result = await call('list_watches', {}, { user_id: 'U0MCPLIST1', team_id: TEAM });
    expect(textOf(result)).toBe('You have no stock watches.');
  });

  it('refuses a call that names no Slack user, with no ERP call', async () => {
    const before = run.sandbox.stats().requests.getItem ?? 0;
    const result = await call('check_stock', { code: 'WIDGET-9' }, null);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/must come from Slack/);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before);
  });

  it('answers a signed body that is not JSON-RPC with a JSON-RPC error, not a crash', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const send = async (body: string) => {
      const reply = await request(`${run.baseUrl}/mcp`, {
        method: 'POST',
        headers: { ...headers, ...signSlackRequest(SIGNING_SECRET, body) },
        body,
      });
      const text = await reply.body.text();
      return { status: reply.statusCode, text };
    };
    const notJson = await send('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.text)).toMatchObject({ error: { code: -32700 } });
    const notRpc = await send('{"hello":"world"}');
    expect(notRpc.status).toBe(400);
    // The app still answers.
    const client = await connect();
    try {
      expect((await client.listTools()).tools).toHaveLength(4);
    } finally {
      await client.close();
    }
  });

  it('answers GET /mcp 405: a stateless server keeps no stream', async () => {
    const reply = await request(`${run.baseUrl}/mcp`, { method: 'GET' });
    await reply.body.dump();
    expect(reply.statusCode).toBe(405);
  });
});
