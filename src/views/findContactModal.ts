/**
 * The "Find contact" modal (App Home's button): one text field; the contact search runs when
 * the form is submitted, never as you type (contact searches have their own small budget).
 * Also the search modal's short "Sharing…" state, shown the moment Share is pressed so Slack
 * gets its acknowledgement before the lookup and the post.
 */
import type { ModalView } from '@slack/types';
import { context, plain, section } from './blocks.js';
import { escapeTruncated } from './format.js';

export const FIND_CONTACT = {
  callbackId: 'contact_find_modal',
  homeButton: 'contact_find_open',
  textBlock: 'contact_find_text_block',
  textAction: 'contact_find_text',
} as const;

/** What the field accepts: the same text `/contact` reads (codes, words, `type:client`). */
const MAX_TEXT = 200;

export function findContactModal(model: { initial?: string } = {}): ModalView {
  const initial = model.initial?.trim().slice(0, MAX_TEXT);
  return {
    type: 'modal',
    callback_id: FIND_CONTACT.callbackId,
    title: plain('Find contact'),
    submit: plain('Find'),
    close: plain('Cancel'),
    blocks: [
      {
        type: 'input',
        block_id: FIND_CONTACT.textBlock,
        label: plain('Company, code or words'),
        hint: plain(
          'A code with words shows only the matching people, e.g. ACME01 accounts. Add type:client or type:supplier to narrow.',
        ),
        element: {
          type: 'plain_text_input',
          action_id: FIND_CONTACT.textAction,
          max_length: MAX_TEXT,
          placeholder: plain('acme, or ACME01 accounts'),
          ...(initial ? { initial_value: initial } : {}),
        },
      },
      context(
        'The answer comes to you privately; phone numbers and e-mails stay hidden until you reveal them.',
      ),
    ],
  };
}

/** The search modal while a share is under way: replaces the form at once (hash-checked). */
export function sharingModal(model: { code: string; where: 'channel' | 'only_me' }): ModalView {
  const where = model.where === 'only_me' ? 'to you' : 'to the conversation';
  return {
    type: 'modal',
    callback_id: 'stock_search_sharing',
    title: plain('Search stock'),
    close: plain('Close'),
    blocks: [
      section(
        `:hourglass_flowing_sand: Sharing ${escapeTruncated(model.code, 100)} ${where}… You can close this; it arrives in a moment.`,
      ),
    ],
  };
}

/** The Find contact modal once submitted: the search runs and the answer comes by message. */
export function findContactSearchingModal(model: { text: string }): ModalView {
  return {
    type: 'modal',
    callback_id: 'contact_find_searching',
    title: plain('Find contact'),
    close: plain('Close'),
    blocks: [
      section(
        `:mag: Looking for “${escapeTruncated(model.text, 200)}”… The answer comes to you in this app’s *Messages* tab, where only you can see it. You can close this.`,
      ),
    ],
  };
}

/** `response_action: errors` texts for the Find contact field. */
export const FIND_CONTACT_ERRORS = {
  empty: 'Type a company, a contact code or a few words.',
} as const;
