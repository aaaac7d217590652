/**
 * `npm start -- --tool check_stock '{"code":"WIDGET-9","quantity":50,"branch":"perth"}'`: one
 * tool call without Slack, so an admin can see what Slackbot would be told. The same MCP
 * server answers it, through the SDK's own client over an in-memory transport, for the
 * console's one person (a full member of its pretend workspace); the text goes to standard
 * output (with --json, the whole result: text and blocks).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { CONSOLE } from '../console/identity.js';
import type { SlackUsersApi } from '../privacy/revealPolicy.js';
import { TOOL_NAMES, toolServer } from './server.js';
import type { ToolDeps } from './tools.js';

/** The console's person, a member of its workspace, as users.info and auth.test tell it. */
const consoleUsers: SlackUsersApi = {
  users: {
    info: async ({ user }) =>
      user === CONSOLE.userId
        ? { ok: true, user: { is_restricted: false, ...{ id: user, team_id: CONSOLE.teamId } } }
        : { ok: false },
  },
  usergroups: { users: { list: async () => ({ ok: true, users: [] }) } },
  auth: { test: async () => ({ ok: true, team_id: CONSOLE.teamId }) },
};

const ToolArguments = z.record(z.string(), z.unknown());

interface ToolRunOptions {
  deps: ToolDeps;
  name: string;
  /** The arguments as JSON; an empty text is no arguments. */
  json: string | undefined;
  /** Print the whole result (text and blocks) as JSON. */
  asJson?: boolean;
  output?: NodeJS.WritableStream;
  errorOutput?: NodeJS.WritableStream;
}

/** The call's arguments, or what is wrong with the command line (a usage error). */
export function toolCall(
  name: string,
  json: string | undefined,
): { ok: true; args: Record<string, unknown> } | { ok: false; problem: string } {
  if (!(TOOL_NAMES as readonly string[]).includes(name)) {
    return { ok: false, problem: `Unknown tool ${name}: use one of ${TOOL_NAMES.join(', ')}.` };
  }
  try {
    return { ok: true, args: ToolArguments.parse(JSON.parse(json?.trim() || '{}')) };
  } catch {
    return {
      ok: false,
      problem: `The arguments must be a JSON object, e.g. '{"code":"WIDGET-9"}'.`,
    };
  }
}

/** 0 when the tool answered, 1 when it refused or failed, 2 on a usage error. */
export async function runTool(options: ToolRunOptions): Promise<number> {
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  const call = toolCall(options.name, options.json);
  if (!call.ok) {
    errorOutput.write(`${call.problem}\n`);
    return 2;
  }
  const { args } = call;
  const server = toolServer({ tools: options.deps, client: () => consoleUsers });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'console', version: '1.0.0' });
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
    const result = await client.callTool({
      name: options.name,
      arguments: args,
      _meta: { slack: { user_id: CONSOLE.userId, team_id: CONSOLE.teamId } },
    });
    if (options.asJson) {
      output.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const content = Array.isArray(result.content) ? result.content : [];
      const texts = content.flatMap((c: { type?: unknown; text?: unknown }) =>
        c.type === 'text' && typeof c.text === 'string' ? [c.text] : [],
      );
      output.write(`${texts.join('\n')}\n`);
    }
    return result.isError === true ? 1 : 0;
  } finally {
    await client.close();
    await server.close();
  }
}
