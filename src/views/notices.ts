import type { SlackMessage } from './message.js';
import { escapeMrkdwn } from './mrkdwn.js';

/**
 * Puts short notices (e.g. "Your text was cut to 200 characters") above a message, as one
 * context block, without pushing it over the 50-block limit.
 */
export function withNotices(message: SlackMessage, notices: readonly string[]): SlackMessage {
  if (notices.length === 0) return message;
  const text = notices.map((notice) => `:information_source: ${escapeMrkdwn(notice)}`).join('\n');
  return {
    text: `${notices.join(' ')}\n${message.text}`,
    blocks: [
      { type: 'context', elements: [{ type: 'mrkdwn', text, verbatim: true }] },
      ...message.blocks.slice(0, 49),
    ],
  };
}
