/**
 * "Tell me when it's Yes": a one-shot watch's words. It speaks once, in the conversation the
 * No was given in, and is gone: no Snooze, no Stop watching, no story told in a thread. Like
 * every message the channel sees, it carries no cost.
 */
import { ACTION, itemState } from './actions.js';
import { actions, context, LIMITS, section, stateButton } from './blocks.js';
import { noticeMessage } from './feedback.js';
import { codeSpan, escapeTruncated, formatQty, slackTime } from './format.js';
import type { SlackMessage } from './message.js';
import { availableQty } from './watchWords.js';

interface OneShotWhat {
  code: string;
  /** The quantity asked for: the verdict turns when this much can be supplied. */
  quantity: number;
  branchName: string | undefined;
}

/** "from Perth" / "company-wide". */
const from = (branchName: string | undefined): string =>
  branchName === undefined ? 'company-wide' : `from ${branchName}`;

/** The visible confirmation, in the thread (or the direct message) it will answer in. */
export function oneShotConfirmation(
  model: OneShotWhat & { creatorId: string; available: number; description: string },
): SlackMessage {
  const promise = `I'll tell you here once when ${formatQty(model.quantity)} of ${model.code} can be supplied ${from(model.branchName)}`;
  return {
    text: escapeTruncated(
      `${promise} (now ${availableQty(model.available)} free).`,
      LIMITS.fallbackText,
    ),
    blocks: [
      section(
        `:eyes: <@${model.creatorId}>: I'll tell you here once when ${formatQty(model.quantity)} of ${codeSpan(model.code)} can be supplied ${escapeTruncated(from(model.branchName), 80)}.\nFree now: *${availableQty(model.available)}*.`,
      ),
      context(`${escapeTruncated(model.description, 200)} · one message, then this is forgotten`),
    ],
  };
}

/** The verdict turned: "✅ Now yes: 50 of WIDGET-9 can be supplied from Perth: 62 free". */
export function oneShotAlert(
  model: OneShotWhat & { itemId: number; available: number; checkedAt: Date },
): SlackMessage {
  const line = `✅ Now yes: ${formatQty(model.quantity)} of ${model.code} can be supplied ${from(model.branchName)}: ${availableQty(model.available)} free`;
  const view = stateButton(
    'View',
    ACTION.itemView,
    itemState({ code: model.code, id: model.itemId }),
    { accessibilityLabel: `View ${model.code} privately` },
  );
  const row = actions([view]);
  return {
    text: escapeTruncated(line, LIMITS.fallbackText),
    blocks: [
      section(escapeTruncated(line, 3000)),
      context(`Checked ${slackTime(model.checkedAt)} · this was a one-time alert`),
      ...(row ? [row] : []),
    ],
  };
}

/** For the presser only: what the press made. `already`: it is a Yes now, said at once. */
export function oneShotMadeNote(what: OneShotWhat, already: boolean): SlackMessage {
  return noticeMessage(
    already
      ? `It is already a yes: ${formatQty(what.quantity)} of ${what.code} can be supplied ${from(what.branchName)} now.`
      : `Done: I'll tell you once, in this conversation, when ${formatQty(what.quantity)} of ${what.code} can be supplied ${from(what.branchName)}.`,
  );
}
