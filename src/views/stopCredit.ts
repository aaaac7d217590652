/**
 * "is ACME01 on stop credit?": the answer's first line, Yes or No, before the account's card.
 * Stop credit is an account term (internal, like cost): shown to whom the card shows terms,
 * and in a channel's thread only when SHARE_ACCOUNT_TERMS allows it; anyone else is told it is
 * not theirs to see.
 */
import type { Contact } from '../erp/schemas.js';
import { LIMITS, section, truncate } from './blocks.js';
import { codeSpan, oneLine } from './format.js';
import type { SlackMessage } from './message.js';

/** "`ACME01` is not on stop credit", or on it (check before shipping). */
export function stopCreditLine(contact: Pick<Contact, 'code' | 'stopcred'>): {
  mrkdwn: string;
  text: string;
} {
  const code = oneLine(contact.code, 60);
  return contact.stopcred !== 0
    ? {
        mrkdwn: `:warning: *${codeSpan(code, 60)} is on stop credit*: check before shipping`,
        text: `${code} is on stop credit: check before shipping.`,
      }
    : {
        mrkdwn: `:white_check_mark: *${codeSpan(code, 60)} is not on stop credit*`,
        text: `${code} is not on stop credit.`,
      };
}

/** Said instead when the asker may not see account terms. */
export function stopCreditHidden(code: string): { mrkdwn: string; text: string } {
  const shown = oneLine(code, 60);
  return {
    mrkdwn: `:lock: Whether ${codeSpan(shown, 60)} is on stop credit is an account term you cannot see here.`,
    text: `Whether ${shown} is on stop credit is an account term you cannot see here.`,
  };
}

/** The message with `line` as its first block and the first words of its fallback. */
export function withLeadLine(
  message: SlackMessage,
  line: { mrkdwn: string; text: string },
): SlackMessage {
  return {
    text: truncate(`${line.text} ${message.text}`, LIMITS.fallbackText),
    blocks: [section(line.mrkdwn), ...message.blocks.slice(0, LIMITS.blocks - 1)],
  };
}
