/**
 * The "Search stock" modal (global shortcut `stock_search`, and the App Home button): a
 * category filter, an item typeahead answered from the catalogue index, and, once an item is
 * chosen, its card with a choice of where to share it.
 *
 * Card buttons need a response_url, which a modal never has, so the card is shown without
 * them; sharing goes through the modal's own submit button.
 */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import { context, divider, plain, section, truncatePlain } from './blocks.js';
import { type CategoryLine, categoryOption } from './catalogue.js';
import { escapeTruncated } from './format.js';
import type { SlackMessage } from './message.js';

export const SEARCH = {
  callbackId: 'stock_search_modal',
  categoryBlock: 'stock_search_filter',
  categoryAction: 'stock_search_category',
  itemBlock: 'stock_search_item_block',
  itemAction: 'stock_search_item',
  shareBlock: 'stock_search_share',
  shareAction: 'stock_search_conversation',
  audienceBlock: 'stock_search_audience',
  audienceAction: 'stock_search_audience_choice',
  homeButton: 'stock_search_open',
  retryBlock: 'stock_search_retry_block',
  retryAction: 'stock_search_retry',
} as const;

const ALL = 'all';
/** Slack allows 100 options in a static select; one is "All categories". */
const MAX_CATEGORY_OPTIONS = 99;

/** What the modal remembers between interactions (in `private_metadata`). */
export const SearchMetadata = z.object({
  category: z.number().int().positive().optional(),
  code: z.string().min(1).max(100).optional(),
});
export type SearchMetadata = z.infer<typeof SearchMetadata>;

export function readSearchMetadata(raw: unknown): SearchMetadata {
  if (typeof raw !== 'string' || raw === '') return {};
  try {
    const parsed = SearchMetadata.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** The category filter's value: a positive id, or undefined for "All categories". */
export function categoryFromValue(value: string | undefined): number | undefined {
  if (value === undefined || value === ALL) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

interface SearchModalModel {
  categories: readonly CategoryLine[];
  /** Whether the catalogue index holds the whole catalogue: only then are counts shown. */
  countsComplete: boolean;
  metadata: SearchMetadata;
  /** The chosen item's card (its buttons are left out in a modal). */
  card?: SlackMessage;
  /** A short line instead of a card (the item could not be fetched). */
  notice?: string;
  /**
   * The code whose card failed in a way that may pass (the ERP down or busy): a Try again
   * under the notice looks it up again in the modal.
   */
  retryCode?: string;
  sandbox: boolean;
}

export function searchModal(model: SearchModalModel): ModalView {
  const named = model.categories.filter(
    (c): c is CategoryLine & { id: number } => c.id !== undefined,
  );
  const all: PlainTextOption = { text: { type: 'plain_text', text: 'All categories' }, value: ALL };
  const options = [
    all,
    ...named
      .slice(0, MAX_CATEGORY_OPTIONS)
      .map((category) => categoryOption(category, model.countsComplete)),
  ];
  const current = options.find((o) => o.value === String(model.metadata.category)) ?? all;
  const blocks: KnownBlock[] = [
    {
      type: 'actions',
      block_id: SEARCH.categoryBlock,
      elements: [
        {
          type: 'static_select',
          action_id: SEARCH.categoryAction,
          placeholder: { type: 'plain_text', text: 'Category' },
          options,
          initial_option: current,
        },
      ],
    },
    {
      type: 'input',
      block_id: SEARCH.itemBlock,
      dispatch_action: true,
      label: { type: 'plain_text', text: 'Item' },
      element: {
        type: 'external_select',
        action_id: SEARCH.itemAction,
        min_query_length: 2,
        placeholder: { type: 'plain_text', text: 'Type a code or a few words' },
      },
    },
  ];
  if (model.sandbox) blocks.unshift(context(':test_tube: *Sandbox data*: not your ERP.'));
  if (model.notice) blocks.push(section(model.notice));
  if (model.retryCode) blocks.push(retryRow(model.retryCode));
  if (model.card) {
    blocks.push(divider(), ...model.card.blocks.filter((b) => b.type !== 'actions'));
    blocks.push(...shareInputs());
  }
  return {
    type: 'modal',
    callback_id: SEARCH.callbackId,
    title: { type: 'plain_text', text: 'Search stock' },
    submit: { type: 'plain_text', text: 'Share to channel' },
    close: { type: 'plain_text', text: 'Close' },
    private_metadata: truncatePlain(JSON.stringify(model.metadata), 3000),
    blocks: blocks.slice(0, 100),
  };
}

/** "Try again" in the modal: the button's value is the code (the listener checks it). */
function retryRow(code: string): KnownBlock {
  return {
    type: 'actions',
    block_id: SEARCH.retryBlock,
    elements: [
      {
        type: 'button',
        action_id: SEARCH.retryAction,
        text: plain('Try again'),
        value: code,
        accessibility_label: truncatePlain(`Look up ${code} again`, 75),
      },
    ],
  };
}

function shareInputs(): KnownBlock[] {
  return [
    {
      type: 'input',
      block_id: SEARCH.shareBlock,
      label: { type: 'plain_text', text: 'Share in' },
      // "Only me" needs no conversation: the listener asks for one only when it is needed.
      optional: true,
      element: {
        type: 'conversations_select',
        action_id: SEARCH.shareAction,
        default_to_current_conversation: true,
        // The submission then carries a response_url for the conversation chosen, which can
        // post there even when the app is not a member.
        response_url_enabled: true,
        placeholder: { type: 'plain_text', text: 'Choose a conversation' },
      },
    },
    {
      type: 'input',
      block_id: SEARCH.audienceBlock,
      label: { type: 'plain_text', text: 'Who sees it' },
      element: {
        type: 'radio_buttons',
        action_id: SEARCH.audienceAction,
        initial_option: AUDIENCE.everyone,
        options: [AUDIENCE.everyone, AUDIENCE.me],
      },
    },
  ];
}

const AUDIENCE = {
  everyone: {
    text: { type: 'plain_text', text: 'Everyone in the conversation' },
    value: 'everyone',
  },
  me: { text: { type: 'plain_text', text: 'Only me (private)' }, value: 'me' },
} satisfies Record<string, PlainTextOption>;

/** `response_action: errors` texts, keyed by input block. */
export const SEARCH_ERRORS = {
  noItem: 'Choose an item first.',
  noConversation: 'Choose where to share it, or “Only me”.',
  cannotPost: (reason: string) =>
    reason === 'not_in_channel'
      ? 'I am not a member of that channel. Invite me with /invite, then share again.'
      : 'I cannot post there. Choose a channel I am in, or “Only me”.',
};

export function itemNotFoundNotice(code: string): string {
  return `No item has the code ${code} any more. Choose another.`;
}

/** The modal while a recent lookup's card is fetched. */
export function lookingUpNotice(code: string): string {
  return `:hourglass_flowing_sand: Looking up ${escapeTruncated(code, 100)}…`;
}
