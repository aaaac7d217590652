/**
 * A local fake of Slack for end-to-end tests through Bolt's real receivers: the Web API under
 * `/api/`, response_urls under `/response/`, and Socket Mode under `/socket`, all on one
 * loopback HTTP server. Point the app at it with `clientOptions.slackApiUrl = fake.apiUrl`
 * (Bolt also routes apps.connections.open there, so Socket Mode connects to the fake).
 *
 * Shut down with `await app.stop()`, then `await fake.close()`. The reverse works only if the
 * app stops right after: a Socket Mode client left running retries a server that is gone (its
 * first attempt comes 5 s later and ends in an unhandled rejection inside @slack/socket-mode).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  answerWebApi,
  type FakeChannel,
  type FakeIdentity,
  type FakeUser,
  parseJson,
  parseWebApiRequest,
  readBody,
  send,
  tsCounter,
  type WebApiContext,
} from '../../../src/console/webApi.js';
import { capture } from '../capture.js';
import { SLACK_DEFAULTS, type SocketEnvelopeType, socketEnvelope } from './payloads.js';
import { ACK_TIMEOUT_MS } from './post.js';
import { type CapturedResponse, RESPONSE_PATH, ResponseUrls } from './responseUrls.js';
import { SocketHub } from './socketHub.js';
import { Waiters } from './waiters.js';

export type { FakeChannel, FakeUser } from '../../../src/console/webApi.js';
export type { CapturedResponse } from './responseUrls.js';

/** How the fake workspace behaves. Every option is optional. */
export interface FakeSlackOptions {
  /** When set, Web API calls must carry exactly this bot token (else `invalid_auth`). */
  botToken?: string;
  /** When set, apps.connections.open must carry exactly this app token (else `invalid_auth`). */
  appToken?: string;
  /**
   * users.info answers; unknown users get `user_not_found`. Merged over two defaults: the
   * payload builders' user (`SLACK_DEFAULTS.userId`, a full member) and the bot user.
   */
  users?: Record<string, FakeUser>;
  /** usergroups.users.list answers (group id -> user ids); unknown groups get `no_such_subteam`. */
  userGroups?: Record<string, string[]>;
  /** conversations.info answers; when omitted every channel exists, described from its id. */
  channels?: Record<string, FakeChannel>;
  /**
   * Method -> Slack error code, e.g. `{ 'chat.postMessage': 'not_in_channel' }`. `ratelimited`
   * answers HTTP 429 with `Retry-After: 1` (use `retryConfig: { retries: 0 }` in the app).
   */
  failures?: Partial<Record<string, string>>;
}

/** One Web API call as the fake received it. */
export interface RecordedCall {
  method: string;
  /** Form fields or JSON body, minus `token`; JSON-encoded fields (blocks…) are decoded. */
  args: Record<string, unknown>;
  /** From `Authorization: Bearer …`, or the `token` field. */
  token: string | undefined;
  /** `Date.now()` when it arrived. */
  at: number;
  /** What the fake answered. */
  reply: Record<string, unknown>;
}

/** The app's ack of a Socket Mode envelope. */
export interface EnvelopeAck {
  envelope_id: string;
  /** What the HTTP response body would have been (`{text}` for a string ack). */
  payload?: unknown;
}

export interface FakeSlack {
  /** `http://127.0.0.1:PORT/api/`: pass as `clientOptions.slackApiUrl`. */
  apiUrl: string;
  /** Recorded Web API calls, oldest first, optionally for one method. */
  calls(method?: string): RecordedCall[];
  /** Resolves once `count` calls of `method` were recorded (default timeout 2000 ms). */
  waitForCalls(method: string, count: number, timeoutMs?: number): Promise<RecordedCall[]>;
  /** A fresh response_url on the fake: `http://127.0.0.1:PORT/response/<uuid>`. */
  responseUrl(): string;
  /** Accepted POSTs to response_urls, optionally to one of them. */
  responses(responseUrl?: string): CapturedResponse[];
  /** Resolves once `count` POSTs reached `responseUrl` (default timeout 2000 ms). */
  waitForResponses(
    responseUrl: string,
    count: number,
    timeoutMs?: number,
  ): Promise<CapturedResponse[]>;
  /** Later POSTs to it get 404, like an expired response_url. The 6th use always does. */
  expireResponseUrl(responseUrl: string): void;
  /** Makes `method` answer `{ok: false, error}` from now on; `undefined` clears it. */
  setFailure(method: string, error: string | undefined): void;
  /** Resolves when a Socket Mode client is connected and was greeted (default timeout 5000 ms). */
  socketConnected(timeoutMs?: number): Promise<void>;
  /** Socket Mode connections accepted so far, reconnects included. */
  socketConnections(): number;
  /**
   * Sends a payload in a Socket Mode envelope and resolves with the app's ack. Waits for a
   * client first. Rejects after `timeoutMs` (default `ACK_TIMEOUT_MS`) without an ack.
   */
  sendEnvelope(type: SocketEnvelopeType, payload: object, timeoutMs?: number): Promise<EnvelopeAck>;
  /** Sends any text as one Socket Mode frame (no ack is awaited). */
  sendRawFrame(text: string): void;
  /** Sends Slack's `disconnect` message; Bolt's client reconnects by itself. */
  sendDisconnect(reason?: 'warning' | 'refresh_requested' | 'link_disabled'): void;
  /** Stops the server, drops sockets and fails pending waits. Call after `app.stop()`. */
  close(): Promise<void>;
}

const DEFAULT_WAIT_MS = 2000;
const ResponseBody = z.record(z.string(), z.unknown());

/** Starts a fake Slack on 127.0.0.1 with a free port. */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const identity: FakeIdentity = {
    teamId: SLACK_DEFAULTS.teamId,
    teamDomain: SLACK_DEFAULTS.teamDomain,
    botId: SLACK_DEFAULTS.botId,
    botUserId: SLACK_DEFAULTS.botUserId,
    appId: SLACK_DEFAULTS.apiAppId,
  };
  const failures = new Map(Object.entries(options.failures ?? {}));
  const waiters = new Waiters();
  const hub = new SocketHub(waiters, identity.appId);
  const recorded: RecordedCall[] = [];
  let origin = '';
  const responses = new ResponseUrls(() => origin);
  const nextTs = tsCounter();

  const webApi: WebApiContext = {
    botToken: options.botToken,
    appToken: options.appToken,
    users: {
      [SLACK_DEFAULTS.userId]: { name: SLACK_DEFAULTS.userName.toLowerCase() },
      [identity.botUserId]: { name: 'erp-lookups', is_bot: true },
      ...options.users,
    },
    groupMembers: (id) => options.userGroups?.[id],
    channels: options.channels,
    identity,
    failureFor: (method) => failures.get(method),
    openSocketUrl: () => {
      const ticket = randomUUID();
      hub.issueTicket(ticket);
      return `${origin.replace(/^http/, 'ws')}/socket?ticket=${ticket}`;
    },
    nextTs,
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const raw = await readBody(req);
    if (req.method === 'POST' && path.startsWith('/api/')) {
      const method = path.slice('/api/'.length);
      const { args, token } = parseWebApiRequest(req, raw);
      const answer = answerWebApi(method, args, token, webApi);
      recorded.push({ method, args, token, at: Date.now(), reply: answer.body });
      capture('message', method, JSON.stringify(args));
      send(res, answer.status, answer.body, answer.headers);
    } else if (req.method === 'POST' && path.startsWith(RESPONSE_PATH)) {
      const body = ResponseBody.safeParse(parseJson(raw));
      if (!body.success) send(res, 400, 'invalid_payload');
      else if (responses.accept(ResponseUrls.idOf(path), body.data)) send(res, 200, { ok: true });
      else send(res, 404, 'expired_url');
    } else {
      send(res, 404, 'not_found');
    }
    waiters.notify();
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => send(res, 500, String(error)));
  });
  server.on('upgrade', (req, socket, head) => hub.handleUpgrade(req, socket, head));
  const port = await listen(server);
  origin = `http://127.0.0.1:${port}`;

  return {
    apiUrl: `${origin}/api/`,
    calls: (method) => recorded.filter((c) => method === undefined || c.method === method),
    async waitForCalls(method, count, timeoutMs = DEFAULT_WAIT_MS) {
      const matching = () => recorded.filter((c) => c.method === method);
      await waiters.until(
        () => matching().length >= count,
        timeoutMs,
        () => `wanted ${count} ${method} call(s), got ${matching().length}`,
      );
      return matching();
    },
    responseUrl: () => responses.mint(),
    responses: (url) => responses.list(url === undefined ? undefined : ResponseUrls.idOf(url)),
    async waitForResponses(url, count, timeoutMs = DEFAULT_WAIT_MS) {
      const id = ResponseUrls.idOf(url);
      await waiters.until(
        () => responses.list(id).length >= count,
        timeoutMs,
        () => `wanted ${count} POST(s) to ${url}, got ${responses.list(id).length}`,
      );
      return responses.list(id);
    },
    expireResponseUrl: (url) => responses.expire(ResponseUrls.idOf(url)),
    setFailure(method, error) {
      if (error === undefined) failures.delete(method);
      else failures.set(method, error);
    },
    socketConnected: (timeoutMs = 5000) =>
      waiters.until(
        () => hub.isConnected(),
        timeoutMs,
        () => 'no Socket Mode client connected',
      ),
    socketConnections: () => hub.connections,
    async sendEnvelope(type, payload, timeoutMs = ACK_TIMEOUT_MS) {
      await waiters.until(
        () => hub.isConnected(),
        timeoutMs,
        () => 'no Socket Mode client connected',
      );
      const envelope = socketEnvelope(type, payload);
      hub.send(envelope);
      const id = envelope.envelope_id;
      await waiters.until(
        () => hub.ack(id) !== undefined,
        timeoutMs,
        () => `no ack for ${type} envelope ${id}`,
      );
      const ack = hub.ack(id);
      if (ack === undefined) throw new Error(`fake Slack: ack for ${id} vanished`);
      const result: EnvelopeAck = { envelope_id: id };
      if (ack.payload !== undefined) result.payload = ack.payload;
      return result;
    },
    sendRawFrame: (text) => hub.sendRaw(text),
    sendDisconnect: (reason = 'refresh_requested') => hub.sendDisconnect(reason),
    async close() {
      waiters.rejectAll('closed');
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}
