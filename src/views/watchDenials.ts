/**
 * Watches refused for whose they are: another person's watch already on that item, branch
 * and channel (never overwritten), and a person at their quota.
 */

import { MEMBER_ID } from '../ids/member.js';
import { noticeMessage } from './feedback.js';
import type { SlackMessage } from './message.js';

export type WatchDenial =
  | { reason: 'user_full'; max: number }
  | { reason: 'watched_by_other'; creatorId: string };

export function watchDenial(denial: WatchDenial): SlackMessage {
  switch (denial.reason) {
    case 'user_full':
      return noticeMessage(
        `No watch made: you already keep ${denial.max} watches, the most one person may (your direct messages with me count too). Remove one with /stock watches or from my Home tab first.`,
      );
    case 'watched_by_other': {
      // Built as mrkdwn so the mention renders; the id is checked by shape first.
      const who = MEMBER_ID.test(denial.creatorId) ? `<@${denial.creatorId}>` : 'someone else';
      const text = `No watch made: ${who} already watches this item here (same branch and direction), and a watch belongs to the person who set it. Ask them to change it, or watch another branch or threshold direction.`;
      return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
    }
  }
}
