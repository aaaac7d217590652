/**
 * A real HTTP server on 127.0.0.1 standing in for the ERP. Each test sets how it answers and
 * reads back exactly what arrived: the raw request line target and the headers.
 */
import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The request target exactly as sent (`/api/getItem/AB%2F12?target=id`). */
  url: string;
  headers: IncomingHttpHeaders;
  /** Header names as sent, lower-cased. */
  headerNames: string[];
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export class TestErpServer {
  readonly requests: ReceivedRequest[] = [];
  private handler: Handler = (_request, response) => json(response, 200, {});

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<TestErpServer> {
    let instance: TestErpServer | undefined;
    const server = createServer((request, response) => instance?.receive(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    instance = new TestErpServer(server, (server.address() as AddressInfo).port);
    return instance;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get lastRequest(): ReceivedRequest {
    const last = this.requests.at(-1);
    if (!last) throw new Error('the test ERP received no request');
    return last;
  }

  /** Sets how every following request is answered. */
  answer(handler: Handler): void {
    this.handler = handler;
  }

  answerJson(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.answer((_request, response) => json(response, status, body, headers));
  }

  answerText(status: number, body: string, headers: Record<string, string> = {}): void {
    this.answer((_request, response) => {
      response.writeHead(status, { 'content-type': 'text/html', ...headers });
      response.end(body);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(request: IncomingMessage, response: ServerResponse): void {
    const headerNames = request.rawHeaders
      .filter((_value, index) => index % 2 === 0)
      .map((name) => name.toLowerCase());
    this.requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      headerNames,
    });
    this.handler(request, response);
  }
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
}
