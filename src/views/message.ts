import type { KnownBlock } from '@slack/types';

/** A Slack message as the views build it: blocks plus the plain-text fallback Slack needs. */
export interface SlackMessage {
  /** Notification and screen-reader text; never contains unredacted personal data. */
  text: string;
  blocks: KnownBlock[];
}

/**
 * The only `<…>` markup the app writes in a fallback itself: a person or a user group it names
 * by id, a channel link, a date token, a reveal answer's `mailto:` and `tel:` links. `<!here>`,
 * `<!channel>`, `<!everyone>` and links are never the app's.
 */
const OWN_MARKUP =
  /^<(?:@[UW][A-Z0-9]{2,40}|#[CGD][A-Z0-9]{2,40}(?:\|[^<>|]*)?|!subteam\^S[A-Z0-9]{2,40}|!date\^\d+\^[^<>|]*\|[^<>|]*|mailto:[^\s<>|]+\|[^<>|]+|tel:\+?[0-9]{7,15}\|[^<>|]+)>$/;
const MARKUP_OR_BRACKET = /<[^<>]*>|[<>]/g;

/**
 * A fallback text as it may leave the app. Slack reads the fallback as mrkdwn: a `<!here>` in
 * it notifies the channel. The views escape what they quote; this is the last stop for what
 * one of them missed: any `<` or `>` that is not the app's own markup is escaped. `&` is left
 * alone, so text already escaped passes unchanged.
 */
export function safeFallback(text: string): string {
  return text.replace(MARKUP_OR_BRACKET, (found) =>
    OWN_MARKUP.test(found) ? found : found.replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
  );
}

/** The message as it is sent: the blocks as drawn, the fallback made safe (`safeFallback`). */
export function outgoing(message: SlackMessage): SlackMessage {
  return { text: safeFallback(message.text), blocks: message.blocks };
}
