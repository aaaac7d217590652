/**
 * Why the app did not post into the conversation a person chose, told to that person alone.
 */

import { noticeMessage } from './feedback.js';
import type { SlackMessage } from './message.js';

export type ConversationRefusal = 'not_member' | 'app_not_member' | 'unknown';

function conversationRefusalText(reason: ConversationRefusal): string {
  switch (reason) {
    case 'not_member':
      return 'You are not a member of that conversation, so I will not post there for you. Choose one you are in (your own direct messages with me work too).';
    case 'app_not_member':
      return 'I am not in that channel. Invite me with `/invite @app` (my name) there, then try again.';
    case 'unknown':
      return 'I could not check who is in that conversation, so I did not post there. Choose a channel I am in, or try again in a minute.';
  }
}

export function conversationRefusal(reason: ConversationRefusal): SlackMessage {
  return noticeMessage(conversationRefusalText(reason));
}
