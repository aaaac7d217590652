/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (no session id: a new server
 * and transport for each request, as the SDK documents for stateless servers), as a custom
 * route of Bolt's HTTP receiver.
 *
 * The route reads nothing before the guard has: the guard (slack/transport/guard.ts) screens
 * every POST whatever its path, with the same intake, body cap, deadline and Slack signature
 * check as `/slack/events`, so an unsigned or stale request is answered 401 before it gets
 * here, and what does get here carries the body the guard read and verified (`rawBody`). A
 * request without one did not pass the guard and is refused. `GET` (a server-sent stream) and
 * `DELETE` (ending a session) have no meaning without sessions: 405, as the SDK's stateless
 * example answers.
 *
 * The SDK is loaded at the first call, not at start-up: it is a large module graph (its cost
 * is in docs/benchmarks.md's memory table), and a replica that Slackbot never calls should
 * not pay for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BufferedIncomingMessage, CustomRoute } from '@slack/bolt';
import { errorFields } from '../log/logger.js';
import { rpcError } from './rpcError.js';
import type { ToolServerDeps } from './server.js';

export const MCP_PATH = '/mcp';

/** The body the guard verified, parsed; undefined when it is not JSON. */
function verifiedBody(req: IncomingMessage): { ok: true; body: unknown } | { ok: false } {
  const raw = (req as Partial<BufferedIncomingMessage>).rawBody;
  if (!Buffer.isBuffer(raw)) return { ok: false };
  try {
    return { ok: true, body: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { ok: true, body: undefined };
  }
}

let serving: Promise<typeof import('./serve.js')> | undefined;

async function serve(deps: ToolServerDeps, req: IncomingMessage, res: ServerResponse) {
  const read = verifiedBody(req);
  if (!read.ok) {
    rpcError(res, 401, -32600, 'Invalid request');
    return;
  }
  if (read.body === undefined) {
    rpcError(res, 400, -32700, 'Parse error');
    return;
  }
  try {
    serving ??= import('./serve.js');
    await (await serving).serveMcp(deps, req, res, read.body);
  } catch (error) {
    // A failed load is tried again at the next call.
    serving = undefined;
    deps.tools.logger.error({ err: errorFields(error) }, 'the MCP server could not answer');
    rpcError(res, 500, -32603, 'Internal server error');
  }
}

/** The MCP route for Bolt's HTTP receiver (only there: Socket Mode has no signed HTTP). */
export function mcpRoutes(deps: ToolServerDeps): CustomRoute[] {
  return [
    {
      path: MCP_PATH,
      method: ['POST', 'GET', 'DELETE'],
      handler: (req, res) => {
        if (req.method === 'POST') {
          void serve(deps, req, res);
          return;
        }
        res.setHeader('allow', 'POST');
        rpcError(res, 405, -32000, 'Method not allowed.');
      },
    },
  ];
}
