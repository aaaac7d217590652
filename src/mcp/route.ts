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
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { BufferedIncomingMessage, CustomRoute } from '@slack/bolt';
import { errorFields } from '../log/logger.js';
import { type ToolServerDeps, toolServer } from './server.js';

export const MCP_PATH = '/mcp';

/** A JSON-RPC error with no request id: what a request the server could not read gets. */
function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The body the guard verified, parsed; undefined when there is none or it is not JSON. */
function verifiedBody(req: IncomingMessage): { ok: true; body: unknown } | { ok: false } {
  const raw = (req as Partial<BufferedIncomingMessage>).rawBody;
  if (!Buffer.isBuffer(raw)) return { ok: false };
  try {
    return { ok: true, body: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { ok: true, body: undefined };
  }
}

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
  const server = toolServer(deps);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    // One JSON answer per request: the tools send no progress or notifications.
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, read.body);
  } catch (error) {
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
