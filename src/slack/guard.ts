/**
 * A guard in front of Bolt's HTTP receiver, for requests Bolt itself mishandles.
 *
 * Bolt 5's HTTPReceiver reads `body.ssl_check` from whatever the body parsed to, inside a
 * promise nobody catches: a correctly signed `payload=null` (or a JSON body `null`) is an
 * unhandled rejection, and Node ends the process (slackapi/bolt-js
 * src/receivers/HTTPReceiver.ts, `if (body.ssl_check === '1')`). Its signature check also
 * refuses only timestamps from the past. So before Bolt sees a request on /slack/events,
 * this guard buffers it (Bolt reuses the buffer), checks the signature and the timestamp in
 * both directions, and answers 400 for a body that is not a JSON object. Everything that
 * passes goes to Bolt, whose own signature check is off (`signatureVerification: false` in
 * app.ts): checking twice cost a cached /stock a tenth of its CPU time (`tsscmp` draws random
 * bytes for every comparison). An `ssl_check` body is cut down to `ssl_check=1` here, as
 * Bolt's check would have done, so nothing unsigned rides along with it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import {
  type BufferedIncomingMessage,
  defaultBodyLimit,
  HTTPModuleFunctions,
  isRawBodyError,
} from '@slack/bolt';
import { z } from 'zod';
import type { AppLogger } from '../log/logger.js';
import { errorFields } from '../log/logger.js';

/** Slack's own rule: a request more than five minutes away from our clock is refused. */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

export type RefusedRequest =
  | 'too_large'
  | 'unreadable'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'not_an_object'
  | 'unexpected_shape'
  | 'internal';

export interface GuardOptions {
  signingSecret: string;
  endpoints: readonly string[];
  logger: AppLogger;
  /** Counts refusals by reason (a metric). */
  onRefused?: (reason: RefusedRequest) => void;
  /** Milliseconds since the epoch; tests move the clock. */
  now?: () => number;
}

type Verdict = { pass: true } | { pass: false; status: number; reason: RefusedRequest };

const refuse = (status: number, reason: RefusedRequest): Verdict => ({
  pass: false,
  status,
  reason,
});

/** Wraps Bolt's request listener; requests to other paths go straight to Bolt. */
export function guardedRequestListener(bolt: RequestListener, options: GuardOptions) {
  const { logger } = options;
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method?.toUpperCase() !== 'POST' || !isEndpoint(options.endpoints, req.url)) {
      // Bolt's own routing; it throws for unknown paths, and its server catches that.
      bolt(req, res);
      return;
    }
    screen(req, options).then(
      (verdict) => {
        if (verdict.pass) {
          passOn(bolt, req, res, logger);
          return;
        }
        options.onRefused?.(verdict.reason);
        logger.warn(
          { event: 'slack_request_refused', reason: verdict.reason },
          'refused a request',
        );
        answer(res, verdict.status);
      },
      (error: unknown) => {
        options.onRefused?.('internal');
        logger.error({ err: errorFields(error) }, 'could not screen a Slack request');
        answer(res, 500);
      },
    );
  };
}

function passOn(
  bolt: RequestListener,
  req: IncomingMessage,
  res: ServerResponse,
  logger: AppLogger,
): void {
  try {
    bolt(req, res);
  } catch (error) {
    logger.error({ err: errorFields(error) }, 'Bolt could not take a Slack request');
    answer(res, 500);
  }
}

async function screen(req: IncomingMessage, options: GuardOptions): Promise<Verdict> {
  let buffered: BufferedIncomingMessage;
  try {
    buffered = await HTTPModuleFunctions.bufferIncomingMessage(req, defaultBodyLimit);
  } catch (error) {
    const tooLarge = isRawBodyError(error) && error.type === 'entity.too.large';
    return tooLarge ? refuse(413, 'too_large') : refuse(400, 'unreadable');
  }
  const text = buffered.rawBody.toString();
  // Parsed once, as Bolt's parseHTTPRequestBody parses it (querystring, then `payload`).
  const form = isFormBody(req) ? parseForm(text) : undefined;
  // Slack's unsigned SSL check: Bolt answers it; nothing smuggled along with it goes on.
  if (form?.ssl_check === '1') {
    buffered.rawBody = Buffer.from('ssl_check=1');
    return { pass: true };
  }

  const signature = singleHeader(req, 'x-slack-signature');
  const timestampHeader = singleHeader(req, 'x-slack-request-timestamp');
  const timestamp = Number(timestampHeader);
  if (signature === undefined || timestampHeader === undefined || !Number.isInteger(timestamp)) {
    return refuse(401, 'bad_signature');
  }
  const nowMs = options.now?.() ?? Date.now();
  const skew = timestamp - Math.floor(nowMs / 1000);
  if (skew > MAX_CLOCK_SKEW_SECONDS) return refuse(401, 'future_timestamp');
  if (skew < -MAX_CLOCK_SKEW_SECONDS) return refuse(401, 'stale_timestamp');
  if (!signedBySlack(options.signingSecret, signature, timestampHeader, text)) {
    return refuse(401, 'bad_signature');
  }

  let body: unknown;
  try {
    body = form
      ? typeof form.payload === 'string'
        ? JSON.parse(form.payload)
        : form
      : JSON.parse(text);
  } catch {
    // Bolt answers a body it cannot parse with 400 itself, without crashing.
    return { pass: true };
  }
  // null, a number, a string or an array: no Slack request looks like that.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse(400, 'not_an_object');
  }
  return boltCanRead(body) ? { pass: true } : refuse(400, 'unexpected_shape');
}

/**
 * Slack's signing: `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{body}` under the
 * signing secret, compared in constant time.
 */
export function signedBySlack(
  signingSecret: string,
  signature: string,
  timestamp: string,
  body: string,
): boolean {
  const expected = Buffer.from(
    `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Whether Bolt's router takes this target for an endpoint: it reads the path as
 * `new URL(req.url, 'http://localhost').pathname`, so `/a/../slack/events` and
 * `http://x/slack/events` are screened too (Bolt no longer checks signatures itself). The
 * usual target, exactly an endpoint, skips the URL parser.
 */
function isEndpoint(endpoints: readonly string[], target = '/'): boolean {
  return (
    endpoints.includes(target) || endpoints.includes(new URL(target, 'http://localhost').pathname)
  );
}

/** Whether Bolt can route this body without throwing (the Socket Mode guard uses it too). */
export function boltCanRead(body: unknown): boolean {
  // A body without any field the schema looks at (a slash command) passes it trivially.
  if (isRecord(body) && !Object.keys(body).some((key) => SCHEMA_FIELDS.has(key))) return true;
  return BoltReadable.safeParse(body).success;
}

const record = z.record(z.string(), z.unknown());

/**
 * The fields Bolt reads before any listener runs, without checking them (its `helpers.ts`
 * and `App.processEvent`): where present, they must have the shape Slack gives them, or Bolt
 * throws (and answers 500). Everything else is left to the listeners' own schemas.
 */
const BoltReadable = z
  .object({
    type: z.unknown().optional(),
    command: z.unknown().optional(),
    name: z.unknown().optional(),
    event: record.refine(readableEvent).optional(),
    authorizations: z.array(record).optional(),
    team: record.nullish(),
    enterprise: record.nullish(),
    user: record.optional(),
    channel: record.optional(),
    view: record.optional(),
    actions: z.array(record).optional(),
  })
  .loose()
  .refine((body) => {
    if (body.event !== undefined || body.command !== undefined) return true;
    // Bolt's own test for an interaction (helpers.ts, getTypeAndConversation).
    const interactive =
      body.name !== undefined || body.actions !== undefined || INTERACTIONS.has(String(body.type));
    if (!interactive) return true;
    // Bolt reads `user.id`, and `view.app_installed_team_id` for view submissions.
    if (body.user === undefined) return false;
    return !(body.type === 'view_submission' || body.type === 'view_closed') || isRecord(body.view);
  });

/** The fields BoltReadable checks, bar `command` (which alone makes any body readable). */
const SCHEMA_FIELDS = new Set([
  'type',
  'name',
  'event',
  'authorizations',
  'team',
  'enterprise',
  'user',
  'channel',
  'view',
  'actions',
]);

const INTERACTIONS = new Set([
  'block_suggestion',
  'dialog_submission',
  'shortcut',
  'message_action',
  'view_submission',
  'view_closed',
]);

/** What Bolt reads from an event (`channel`, `item.channel`, `user.id`, `subteam.created_by`). */
function readableEvent(event: Record<string, unknown>): boolean {
  const has = (key: string) => key in event;
  return (
    (!has('channel') || typeof event.channel === 'string' || isRecord(event.channel)) &&
    (!has('item') || isRecord(event.item)) &&
    (!has('user') || event.user !== null) &&
    (!has('subteam') || isRecord(event.subteam))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isFormBody = (req: IncomingMessage) =>
  req.headers['content-type'] === 'application/x-www-form-urlencoded';

function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function answer(res: ServerResponse, status: number): void {
  if (res.headersSent) return;
  res.writeHead(status);
  res.end();
}
