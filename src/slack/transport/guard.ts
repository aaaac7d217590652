/**
 * The HTTP guard in front of Bolt's receiver: what Bolt's HTTPReceiver cannot do, done before
 * Bolt sees a request, and the one place a signature is checked.
 *
 * In order, for a POST to any path:
 * 1. a Content-Length above the cap is refused with 413 before a byte of the body is read;
 * 2. a timestamp header more than five minutes away from our clock is refused, from the header
 *    alone: one in the future (Bolt's verifier refuses only old ones), and one in the past, so
 *    that a replayed or stale request costs no body read and no share of the intake's reserve
 *    (Bolt's check after the body, step 4, stays the authoritative one for the past);
 * 3. the body is read with a byte cap (a chunked body that grows past it is cut off with 413)
 *    and a deadline (408), within the intake's bytes (intake.ts: a share per network, a
 *    reserve only small signed requests may use, and a request with Slack's signature headers
 *    drops the oldest body still arriving rather than being refused; 503 past them), so slow
 *    senders cannot hold memory or keep Slack's own requests out;
 * 4. Bolt's own check on the buffered body (`HTTPModuleFunctions.parseAndVerifyHTTPRequest`):
 *    the signature and the timestamp's age, and Slack's unsigned `ssl_check` cut down to
 *    `ssl_check=1`, which Bolt then answers;
 * 5. only then the body is parsed, and one Bolt cannot read is refused with 400: a signed
 *    `payload=null` or JSON `null` is an unhandled rejection inside Bolt 5's receiver
 *    (`body.ssl_check` read on null), which would end the process.
 *
 * Why the check runs here and not in the receiver (whose own is off, `signatureVerification:
 * false`, so each request costs one HMAC): the receiver verifies only its Slack endpoint
 * (custom routes and other paths are never verified), and it parses the body right after its
 * check with no hook in between, so step 5 could only run before the signature is known. Here
 * every POST, whatever its path or spelling, is verified before anything reads it; what passes
 * goes to Bolt, which reuses the buffered body (and answers 404 off its endpoint).
 *
 * The Socket Mode guard asks the same question as step 5 (`boltCanRead`, at the end).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type BufferedIncomingMessage, HTTPModuleFunctions } from '@slack/bolt';
import { z } from 'zod';
import { type AppLogger, errorFields } from '../../log/logger.js';
import type { BodyClaim, Intake } from './intake.js';

/** Slack's own rule: a request more than five minutes away from our clock is refused. */
const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

/**
 * Slack's largest request to this app is the message shortcut on a long message: Slack allows
 * 40,000 characters and sends both the `text` and the rich-text `blocks` holding the same
 * text, JSON inside a url-encoded form (`payload=`). A character outside the Basic
 * Multilingual Plane, JSON-escaped as a surrogate pair (`\ud835\udc00`) whose backslashes are
 * url-encoded, is 16 bytes on the wire (`%5Cud835%5Cudc00`), a 3-byte UTF-8 character sent
 * raw is 9 (`%E4%B8%AD`): at worst 40,000 × 16 × 2 = 1.28 MB, plus the payload around it.
 * 1.5 MiB admits that (test/slack/bodyCap.unit.test.ts builds it) and refuses anything larger,
 * which is not Slack (docs/operations.md, "Request intake").
 */
export const MAX_BODY_BYTES = 1536 * 1024;

/**
 * Bytes all requests being read may hold together: thousands of ordinary Slack requests (a
 * few KB each), or ten bodies at the cap. Past it, a crowd of slow bodies is refused with 503
 * (or dropped, oldest first, for a signed newcomer) instead of growing the heap.
 */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** Of that, what only small signed requests may use: slow large bodies never reach it. */
export const RESERVED_BUFFERED_BYTES = 1024 * 1024;

/** Bytes the bodies of one peer (a /24 or /64) may hold together: one body at the cap, and more. */
export const MAX_BUFFERED_BYTES_PER_PEER = 2 * 1024 * 1024;

/** A body declared at most this size, with Slack's signature headers, is a small request. */
export const SMALL_BODY_BYTES = 16 * 1024;

/** Slack's signature header: `v0=` and a hex HMAC-SHA256. */
const SIGNATURE_SHAPE = /^v0=[0-9a-f]{64}$/;

/** How long a client may take to send its body once its headers arrived. */
export const BODY_DEADLINE_MS = 10_000;

type RefusedRequest =
  | 'too_large'
  | 'too_slow'
  | 'too_many_bodies'
  | 'unreadable'
  | 'bad_signature'
  | 'future_timestamp'
  | 'stale_timestamp'
  | 'not_an_object'
  | 'unexpected_shape'
  | 'internal';

interface GuardOptions {
  signingSecret: string;
  logger: AppLogger;
  /** Counts refusals by reason (a metric). */
  onRefused?: (reason: RefusedRequest) => void;
  /** Milliseconds since the epoch, for the timestamp bounds; tests move the clock. */
  now?: () => number;
  /** `MAX_BODY_BYTES` unless a test says otherwise. */
  maxBodyBytes?: number;
  /** `BODY_DEADLINE_MS` unless a test says otherwise. */
  bodyDeadlineMs?: number;
  /** Connections and body bytes (intake.ts): what each request may hold while it is read. */
  intake: Intake;
}

/** The guard's request listener, and how many body bytes it holds right now. */
interface GuardedListener {
  (req: IncomingMessage, res: ServerResponse): void;
  bufferedBytes(): number;
}

type Verdict = { pass: true } | { pass: false; status: number; reason: RefusedRequest };

const refuse = (status: number, reason: RefusedRequest): Verdict => ({
  pass: false,
  status,
  reason,
});

/** Wraps Bolt's request listener: every POST is screened; other methods go to Bolt. */
export function guardedRequestListener(
  bolt: RequestListener,
  options: GuardOptions,
): GuardedListener {
  const { logger, intake } = options;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const { socket } = req;
    intake.phase(socket, req.method === 'POST' ? 'reading' : 'serving');
    // Between two requests a keep-alive connection holds a place without serving anything.
    res.once('finish', () => intake.phase(socket, 'idle'));
    if (req.method !== 'POST') {
      // Bolt's own routing (the health routes); it throws for unknown paths, its server
      // catches that and answers 404.
      bolt(req, res);
      return;
    }
    screen(req, options).then(
      (verdict) => {
        intake.phase(socket, 'serving');
        if (verdict.pass) {
          passOn(bolt, req, res, logger);
          return;
        }
        options.onRefused?.(verdict.reason);
        logger.warn(
          { event: 'slack_request_refused', reason: verdict.reason },
          'refused a request',
        );
        refuseAndClose(req, res, verdict.status);
      },
      (error: unknown) => {
        options.onRefused?.('internal');
        logger.error({ err: errorFields(error) }, 'could not screen a Slack request');
        refuseAndClose(req, res, 500);
      },
    );
  };
  return Object.assign(listener, { bufferedBytes: () => intake.counts().bytes });
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
    // Bolt throws for a path it does not serve (after the signature was checked here).
    const deferred =
      (error as { code?: unknown }).code === 'slack_bolt_http_receiver_deferred_request_error';
    if (!deferred) logger.error({ err: errorFields(error) }, 'Bolt could not take a Slack request');
    refuseAndClose(req, res, deferred ? 404 : 500);
  }
}

async function screen(req: IncomingMessage, options: GuardOptions): Promise<Verdict> {
  const maxBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return refuse(413, 'too_large');

  const signature = singleHeader(req, 'x-slack-signature');
  const timestamp = singleHeader(req, 'x-slack-request-timestamp');
  const skew = timestamp === undefined ? undefined : clockSkew(timestamp, options);
  // Before the body is read: a request from the future, or older than Bolt's window (its own
  // rule, `now - 5 min > timestamp`), costs nothing.
  if (skew !== undefined && skew > MAX_CLOCK_SKEW_SECONDS) return refuse(401, 'future_timestamp');
  if (skew !== undefined && skew < -MAX_CLOCK_SKEW_SECONDS) return refuse(401, 'stale_timestamp');

  // Signed as Slack signs, by the headers alone (the body is not in yet): may drop older
  // bodies to make room, and, when small, use the reserve (intake.ts says why that holds).
  const signed = signature !== undefined && SIGNATURE_SHAPE.test(signature) && skew !== undefined;
  const small =
    signed && declared !== undefined && Number(declared) <= options.intake.limits.smallBodyBytes;
  const read = await readBody(req, options.intake, {
    maxBytes,
    deadlineMs: options.bodyDeadlineMs ?? BODY_DEADLINE_MS,
    claim: { signed, small },
  });
  if (!read.ok) return refuse(read.status, read.reason);
  const buffered = req as BufferedIncomingMessage;
  buffered.rawBody = read.body;
  try {
    // Reuses rawBody; an unsigned `ssl_check` comes back cut down to `ssl_check=1`.
    await HTTPModuleFunctions.parseAndVerifyHTTPRequest(
      { enabled: true, signingSecret: options.signingSecret },
      buffered,
    );
  } catch {
    return refuse(401, 'bad_signature');
  }
  return screenBody(buffered);
}

/**
 * Seconds between the request's timestamp and our clock, the header read as Bolt's verifier
 * reads it (`Number`), so that no spelling it accepts escapes either bound.
 */
function clockSkew(header: string, options: GuardOptions): number | undefined {
  const seconds = Number(header);
  if (Number.isNaN(seconds)) return undefined;
  const nowMs = options.now?.() ?? Date.now();
  return seconds - Math.floor(nowMs / 1000);
}

/** After the signature: the body parsed as Bolt parses it, refused where Bolt would crash. */
function screenBody(req: BufferedIncomingMessage): Verdict {
  let body: unknown;
  try {
    body = HTTPModuleFunctions.parseHTTPRequestBody(req);
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

type BodyRead =
  | { ok: true; body: Buffer }
  | {
      ok: false;
      status: number;
      reason: 'too_large' | 'too_slow' | 'too_many_bodies' | 'unreadable';
    };

/**
 * The body, at most `maxBytes`, within `deadlineMs`, while the bodies being read stay within
 * the intake's bytes (its peer's share, and the total past the reserve unless small and
 * signed: `claim`); the request is left paused otherwise.
 */
function readBody(
  req: IncomingMessage,
  intake: Intake,
  limits: { maxBytes: number; deadlineMs: number; claim: BodyClaim },
): Promise<BodyRead> {
  const { maxBytes, deadlineMs, claim } = limits;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      clearTimeout(timer);
      // Once read, the body belongs to Bolt (or is dropped): the guard holds it no longer.
      intake.release(req.socket);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (!result.ok) req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > maxBytes) {
        chunks.length = 0;
        finish({ ok: false, status: 413, reason: 'too_large' });
        return;
      }
      if (!intake.take(req.socket, chunk.length, claim)) {
        chunks.length = 0;
        finish({ ok: false, status: 503, reason: 'too_many_bodies' });
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks, size) });
    const onError = () => finish({ ok: false, status: 400, reason: 'unreadable' });
    const timer = setTimeout(() => {
      chunks.length = 0;
      finish({ ok: false, status: 408, reason: 'too_slow' });
    }, deadlineMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Answers and closes the connection: a refused body is never read to its end (Node would
 * otherwise drain it to keep the connection alive).
 */
function refuseAndClose(req: IncomingMessage, res: ServerResponse, status: number): void {
  if (!res.headersSent) {
    res.writeHead(status, { connection: 'close' });
    res.end();
  }
  res.once('finish', () => req.destroy());
  if (res.writableFinished) req.destroy();
}

/**
 * Whether Bolt can route a parsed body without throwing: Bolt reads some fields before any
 * listener runs, without checking them. Both transports' guards (HTTP and Socket Mode) ask.
 */
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
