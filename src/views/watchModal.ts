/**
 * The Watch… modal that item cards open: threshold, below/above, branch (optional), channel.
 */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { plain, section } from './blocks.js';
import { codeSpan, escapeTruncated } from './format.js';
import type { WatchOpenState } from './watchButtons.js';

export const WATCH_MODAL = {
  callbackId: 'watch_modal',
  thresholdBlock: 'watch_threshold',
  thresholdAction: 'watch_threshold_input',
  directionBlock: 'watch_direction',
  directionAction: 'watch_direction_input',
  branchBlock: 'watch_branch',
  branchAction: 'watch_branch_input',
  channelBlock: 'watch_channel',
  channelAction: 'watch_channel_input',
} as const;

/** The Watch… modal's field error when no channel was chosen. */
export const WATCH_MODAL_NO_CHANNEL = 'Choose a channel.';
/** The Watch… modal's field error when the threshold is empty or not a whole number. */
export const WATCH_MODAL_BAD_THRESHOLD = 'Enter a whole number of 0 or more, e.g. 20.';
/** The Watch… modal's field error when neither "falls below" nor "rises to" is chosen. */
export const WATCH_MODAL_NO_DIRECTION = 'Choose falls below or rises to or above.';

/** The Watch… modal: threshold, below/above, branch (optional), channel. */
export function watchModal(model: {
  state: WatchOpenState;
  description: string;
  branches: readonly string[];
}): ModalView {
  const option = (text: string, value: string): PlainTextOption => ({
    text: plain(text, 75),
    value,
  });
  const below = option('falls below', 'below');
  const above = option('rises to or above', 'above');
  const blocks: KnownBlock[] = [
    section(`${codeSpan(model.state.c)} ${escapeTruncated(model.description, 300)}`),
    {
      type: 'input',
      block_id: WATCH_MODAL.directionBlock,
      label: plain('Tell the channel when available'),
      element: {
        type: 'radio_buttons',
        action_id: WATCH_MODAL.directionAction,
        initial_option: below,
        options: [below, above],
      },
    },
    {
      type: 'input',
      block_id: WATCH_MODAL.thresholdBlock,
      label: plain('Threshold'),
      element: {
        type: 'number_input',
        action_id: WATCH_MODAL.thresholdAction,
        // Whole numbers, as `/stock watch` takes them; the submission is checked again.
        is_decimal_allowed: false,
        min_value: '0',
      },
    },
  ];
  if (model.branches.length > 0) {
    blocks.push({
      type: 'input',
      block_id: WATCH_MODAL.branchBlock,
      optional: true,
      label: plain('At branch (empty: company-wide)'),
      element: {
        type: 'static_select',
        action_id: WATCH_MODAL.branchAction,
        options: model.branches.slice(0, 100).map((b) => option(b, b.slice(0, 75))),
      },
    });
  }
  blocks.push({
    type: 'input',
    block_id: WATCH_MODAL.channelBlock,
    label: plain('Channel to tell'),
    element: {
      type: 'conversations_select',
      action_id: WATCH_MODAL.channelAction,
      default_to_current_conversation: true,
      filter: { include: ['public', 'private'], exclude_bot_users: true },
      ...(model.state.ch ? { initial_conversation: model.state.ch } : {}),
    },
  });
  return {
    type: 'modal',
    callback_id: WATCH_MODAL.callbackId,
    title: plain('Watch stock', 24),
    submit: plain('Watch', 24),
    close: plain('Cancel', 24),
    private_metadata: JSON.stringify(model.state),
    blocks,
  };
}
