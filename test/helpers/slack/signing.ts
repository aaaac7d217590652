/**
 * Slack's request signing, reproduced for tests that talk to the app's real HTTPReceiver.
 *
 * Slack signs `v0:{timestamp}:{raw body}` with HMAC-SHA256 keyed by the app's signing secret
 * and sends `v0=<hex>` in `X-Slack-Signature` next to `X-Slack-Request-Timestamp` (Unix
 * seconds). The raw body must be signed byte for byte: Bolt verifies before it parses.
 * docs.slack.dev/authentication/verifying-requests-from-slack
 */
import { createHmac } from 'node:crypto';

/** The two headers Slack adds to every HTTP request it sends to an app. */
export interface SlackSignatureHeaders {
  'x-slack-signature': string;
  'x-slack-request-timestamp': string;
}

/**
 * Signs a raw request body the way Slack does.
 *
 * @param signingSecret - the app's signing secret.
 * @param rawBody - the exact body that will be sent (form-encoded for commands and interactions).
 * @param timestamp - Unix seconds; defaults to now. Bolt rejects timestamps older than 5 minutes,
 *   so pass an old one to test replay protection.
 */
export function signSlackRequest(
  signingSecret: string,
  rawBody: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): SlackSignatureHeaders {
  const baseString = `v0:${timestamp}:${rawBody}`;
  const digest = createHmac('sha256', signingSecret).update(baseString, 'utf8').digest('hex');
  return {
    'x-slack-signature': `v0=${digest}`,
    'x-slack-request-timestamp': String(timestamp),
  };
}
