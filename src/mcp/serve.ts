/**
 * One MCP request answered: a new server and a new stateless transport (no session id), closed
 * with the response. Loaded by route.ts at the first call.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type ToolServerDeps, toolServer } from './server.js';

export async function serveMcp(
  deps: ToolServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
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
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
