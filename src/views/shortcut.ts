/**
 * The answer to the message shortcut "Look up stock": one line per code found in the
 * message (code, description, total available, best branches) with a View button, then the
 * codes the ERP does not know and the ones that could not be looked up.
 */
import type { KnownBlock, SectionBlock } from '@slack/types';
import type { Item } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import type { StockVerdict } from '../rules/stock.js';
import { ACTION, actionId, itemState } from './actions.js';
import { context, LIMITS, md, section, stateButton } from './blocks.js';
import { errorToUserMessage, type RetryButton, tryAgainRow } from './feedback.js';
import {
  codeSpan,
  type DisplayOptions,
  escapeMrkdwn,
  escapeTruncated,
  formatQty,
  oneLine,
  oneLineAtWord,
  plural,
  SANDBOX_NOTE,
  slackTimeAgo,
  statusLabel,
} from './format.js';
import { availablePhrase, rankBranches, verdictSentence } from './itemParts.js';
import type { SlackMessage } from './message.js';

/** The shortcut looks up at most 5 codes; this also bounds a careless caller. */
const MAX_LINES = 20;
const BEST = 3;

interface ShortcutResultsModel extends DisplayOptions {
  /** `verdict`: the item's own question answered (`20 FST-M8-25 and 5 WIDGET-9 at …`). */
  found: Array<{ item: Item; freshness: Freshness; verdict?: StockVerdict }>;
  notFound: string[];
  failed: Array<{ code: string; error: unknown }>;
  /** Codes past the ones looked up, named so none is dropped silently ("+2 more: …"). */
  notLookedUp?: readonly string[];
  /** Where the codes came from: the message shortcut (default) or `/stock A, B`. */
  source?: 'shortcut' | 'command';
  /** The thread the message was in: View opens the card there, and its Share posts there. */
  threadTs?: string;
  /** The same codes asked again, offered when a lookup failed in a way that may pass. */
  retry?: RetryButton;
  now: Date;
}

export function shortcutResults(model: ShortcutResultsModel): SlackMessage {
  const found = model.found.slice(0, MAX_LINES);
  const blocks: KnownBlock[] = found.map(({ item, freshness, verdict }, i) =>
    foundLine(item, freshness, i, model.threadTs, verdict),
  );
  if (model.notFound.length > 0) {
    blocks.push(section(`:grey_question: *Not found:* ${codes(model.notFound)}`));
  }
  for (const { code, error } of model.failed.slice(0, MAX_LINES)) {
    blocks.push(section(`:warning: ${codeSpan(code)}: ${errorToUserMessage(error)}`));
  }
  const again = tryAgainRow(
    model.retry,
    model.failed.map((f) => f.error),
  );
  if (again) blocks.push(again);
  const rest = model.notLookedUp ?? [];
  if (rest.length > 0) {
    blocks.push(context(`+${formatQty(rest.length)} more, not looked up: ${codes(rest)}`));
  }
  if (blocks.length === 0) blocks.push(section('No item codes found in that message.'));
  const from =
    model.source === 'command'
      ? 'Several codes, one line each · visible only to you'
      : 'From the message shortcut *Look up stock* · visible only to you';
  blocks.push(model.sandbox ? context(from, SANDBOX_NOTE) : context(from));
  return { text: fallbackText(model), blocks: blocks.slice(0, LIMITS.blocks) };
}

function foundLine(
  item: Item,
  freshness: Freshness,
  index: number,
  threadTs: string | undefined,
  verdict?: StockVerdict,
): SectionBlock {
  const description = oneLineAtWord(item.description, 80);
  const best = rankBranches(item.branches)
    .filter((b) => b.available > 0)
    .slice(0, BEST)
    .map((b) => `${oneLine(b.name, 30)} ${formatQty(b.available)}`);
  const status =
    item.status_label === 'Active' ? '' : ` · ${statusLabel(item.status_label, 'Disabled', 30)}`;
  const stale = freshness.stale
    ? ` · :warning: _ERP unreachable; data fetched ${slackTimeAgo(freshness.fetchedAt)}_`
    : '';
  const answer =
    verdict === undefined ? [] : [`${icon(verdict)} ${escapeMrkdwn(verdictSentence(verdict))}`];
  const text = [
    ...answer,
    `${codeSpan(item.code)}${description ? ` ${description}` : ''}${status}`,
    `${availablePhrase(item.available)}${best.length > 0 ? ` · best: ${best.join(', ')}` : ' · no branch has any available'}${stale}`,
  ].join('\n');
  const state = itemState(item, threadTs === undefined ? {} : { threadTs });
  const button = stateButton('View', actionId(ACTION.itemView, index), state, {
    accessibilityLabel: `View ${item.code}`,
  });
  return button ? { type: 'section', text: md(text), accessory: button } : section(text);
}

const icon = (verdict: StockVerdict) => (verdict.canSupply ? ':white_check_mark:' : ':x:');

function codes(list: readonly string[]): string {
  const shown = list.slice(0, 10).map((c) => codeSpan(c, 40));
  return list.length > 10 ? `${shown.join(', ')} +${list.length - 10} more` : shown.join(', ');
}

function fallbackText(model: ShortcutResultsModel): string {
  const parts = [
    ...model.found.map(
      ({ item }) =>
        `${item.code}: ${formatQty(item.available)} available${item.available < 0 ? ', over-allocated' : ''}`,
    ),
    model.notFound.length > 0 ? `not found: ${model.notFound.join(', ')}` : '',
    model.failed.length > 0 ? `${plural(model.failed.length, 'code')} could not be looked up` : '',
    (model.notLookedUp ?? []).length > 0
      ? `+${formatQty(model.notLookedUp?.length ?? 0)} more not looked up`
      : '',
  ].filter(Boolean);
  return escapeTruncated(parts.join('; ') || 'No item codes found in that message.', 1000);
}
