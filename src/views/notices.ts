import { context } from './blocks.js';
import { truncate } from './limits.js';
import type { SlackMessage } from './message.js';
import { escapeTruncated } from './mrkdwn.js';

/** A notice is one short sentence; anything longer is cut, so a message stays in its limits. */
const MAX_NOTICE = 300;

/**
 * Puts short notices (e.g. "Your text was cut to 200 characters") above a message, as one
 * context block, without pushing it over the 50-block limit. Notices may quote what the user
 * typed, so they are escaped in the blocks and in the fallback text alike.
 */
export function withNotices(message: SlackMessage, notices: readonly string[]): SlackMessage {
  if (notices.length === 0) return message;
  const escaped = notices.map((notice) => escapeTruncated(notice, MAX_NOTICE));
  return {
    text: truncate(`${escaped.join(' ')}\n${message.text}`, 4000),
    blocks: [
      context(escaped.map((notice) => `:information_source: ${notice}`).join('\n')),
      ...message.blocks.slice(0, 49),
    ],
  };
}
