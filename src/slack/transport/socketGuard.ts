/**
 * Why this exists: @slack/socket-mode (3.x, under Bolt 5) parses each WebSocket message and
 * then reads `event.type` and, for `events_api`, `event.payload.event.type`, in an async
 * handler whose rejection nobody catches: a frame `null`, or an envelope whose payload is
 * `null`, ends the process. It also re-emits the frame's `type` as an event name on itself, so
 * a frame of type `error` or `ws_message` would throw or loop. Bolt's SocketModeReceiver has
 * no hook before that handler, and there are no signatures to check in Socket Mode (Slack
 * authenticates the socket), so this is the whole guard: it replaces the client's handler with
 * one that passes on only frames shaped like Slack's (hello, disconnect, or an envelope of a
 * known type whose payload is an object Bolt can read, `boltCanRead`). A refused frame is
 * logged (with its envelope id, if any) and dropped; it is not acknowledged, as the client
 * offers no public way to. It can go once the client checks its frames itself
 * (test/security/requests.test.ts sends it such frames).
 */
import type { SocketModeReceiver } from '@slack/bolt';
import { z } from 'zod';
import { type AppLogger, errorFields } from '../../log/logger.js';
import { boltCanRead } from './guard.js';

type SocketModeClient = SocketModeReceiver['client'];

// The client re-emits an event's type as an event name on itself: these names are its own.
const CLIENT_EVENTS = new Set([
  'error',
  'ws_message',
  'ws_open',
  'ws_close',
  'slack_event',
  'outgoing_message',
  'connecting',
  'connected',
  'authenticated',
  'disconnecting',
  'disconnected',
  'reconnecting',
  'close',
]);

const Control = z.object({ type: z.enum(['hello', 'disconnect']) }).loose();

const Envelope = z
  .object({
    envelope_id: z.string().min(1).max(200),
    type: z.enum(['slash_commands', 'interactive', 'events_api']),
    payload: z.record(z.string(), z.unknown()),
  })
  .loose()
  .refine(
    (frame) => {
      if (!boltCanRead(frame.payload)) return false;
      if (frame.type !== 'events_api') return true;
      const inner = frame.payload.event;
      if (typeof inner !== 'object' || inner === null) return false;
      const type: unknown = Reflect.get(inner, 'type');
      return typeof type === 'string' && !CLIENT_EVENTS.has(type);
    },
    { message: 'events_api without an event type' },
  );

const EnvelopeId = z.object({ envelope_id: z.string().min(1).max(200) }).loose();

type WsListener = (data: unknown, isBinary?: boolean) => unknown;

interface SocketGuardOptions {
  logger: AppLogger;
  onRefused?: (reason: 'not_json' | 'unexpected_frame') => void;
}

/** Replaces the client's `ws_message` handler with a screened one. */
export function guardSocketClient(client: SocketModeClient, options: SocketGuardOptions): void {
  const handlers = client.listeners('ws_message') as WsListener[];
  client.removeAllListeners('ws_message');
  client.on('ws_message', (data: unknown, isBinary?: boolean) => {
    if (isBinary) return; // the client ignores binary frames itself
    const verdict = screenFrame(data);
    if (verdict === 'pass') {
      for (const handler of handlers) {
        // The client's handler is async; a rejection it still has must not end the process.
        Promise.resolve()
          .then(() => handler(data, isBinary))
          .catch((error: unknown) => {
            options.logger.error(
              { err: errorFields(error) },
              'Socket Mode client failed on a message',
            );
          });
      }
      return;
    }
    options.onRefused?.(verdict.reason);
    options.logger.warn(
      {
        event: 'slack_request_refused',
        reason: verdict.reason,
        transport: 'socket',
        envelopeId: verdict.envelopeId,
      },
      'refused a Socket Mode message',
    );
  });
}

type FrameVerdict =
  | 'pass'
  | { reason: 'not_json' | 'unexpected_frame'; envelopeId: string | undefined };

function screenFrame(data: unknown): FrameVerdict {
  const text =
    typeof data === 'string'
      ? data
      : data instanceof Uint8Array || data instanceof ArrayBuffer
        ? new TextDecoder().decode(data)
        : undefined;
  if (text === undefined) return { reason: 'unexpected_frame', envelopeId: undefined };
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return { reason: 'not_json', envelopeId: undefined };
  }
  if (Control.safeParse(frame).success || Envelope.safeParse(frame).success) return 'pass';
  const id = EnvelopeId.safeParse(frame);
  return { reason: 'unexpected_frame', envelopeId: id.success ? id.data.envelope_id : undefined };
}
