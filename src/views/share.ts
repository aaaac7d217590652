/**
 * Why a card could not be shared to the channel, from Slack's error code, with what to do.
 */
import { noticeMessage } from './feedback.js';
import type { SlackMessage } from './message.js';

const CANNOT_POST: Readonly<Record<string, string>> = {
  not_in_channel: 'I am not a member of this channel. Invite me with /invite, then share again.',
  channel_not_found:
    'I cannot post in this conversation (a private channel or a direct message I am not part of). Invite me, or share from a channel I am in.',
  is_archived: 'This channel is archived, so nothing can be posted in it.',
  restricted_action: 'This workspace does not let apps post in this channel.',
  no_permission: 'I do not have permission to post in this channel.',
};

export function cannotShareMessage(slackErrorCode: string): SlackMessage {
  return noticeMessage(
    (Object.hasOwn(CANNOT_POST, slackErrorCode) ? CANNOT_POST[slackErrorCode] : undefined) ??
      'I could not post in this channel. Try again, or ask an admin to check my permissions.',
  );
}
