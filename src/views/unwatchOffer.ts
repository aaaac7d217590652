/**
 * "stop watching WIDGET-9" in words: this conversation's watches on the item, each with a
 * Remove button that asks to confirm; nothing is removed by the sentence itself. None: said so.
 */
import type { KnownBlock } from '@slack/types';
import { LIMITS, section } from './blocks.js';
import { noticeMessage } from './feedback.js';
import { codeSpan, escapeTruncated } from './format.js';
import type { SlackMessage } from './message.js';
import { removeButton } from './watchButtons.js';
import { watchName } from './watchWords.js';

interface OfferedWatch {
  id: string;
  code: string;
  branchName: string | undefined;
}

export function unwatchOffer(code: string, watches: readonly OfferedWatch[]): SlackMessage {
  if (watches.length === 0) {
    return noticeMessage(`There is no watch on ${codeSpan(code, 40)} in this conversation.`);
  }
  const blocks: KnownBlock[] = [section('Stop watching? Press Remove (you are asked to confirm):')];
  for (const w of watches.slice(0, 20)) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: escapeTruncated(watchName(w), 200), verbatim: true },
      accessory: removeButton(w),
    });
  }
  return {
    text: escapeTruncated(`Stop watching ${code}? Nothing removed yet.`, LIMITS.fallbackText),
    blocks: blocks.slice(0, LIMITS.blocks),
  };
}
