/**
 * What the words on a card depend on besides the data: whether the ERP is the built-in
 * sandbox, and whether cost may be shown to a channel. Listeners pass these through the
 * view models; the views decide what that means for each message.
 */
import type { ContextBlock } from '@slack/types';
import type { Freshness } from '../lookup/types.js';
import { context } from './blocks.js';
import { freshnessLine, shortFreshnessLine } from './format.js';

export interface DisplayOptions {
  /** The app runs on its built-in sandbox ERP: every card and list says so. */
  sandbox?: boolean;
  /** `SHARE_COST=true`: item and component costs show on shared cards too. */
  shareCost?: boolean;
  /** `SHARE_ACCOUNT_TERMS=true`: credit limit, discount, terms and stop credit too. */
  shareAccountTerms?: boolean;
  /**
   * The person the card is drawn for (the asker; on a shared card, the sharer) is a full
   * member of the installing workspace (privacy/membership.ts). Unset means no: cost
   * and account terms stay off the card, whatever else allows them.
   */
  internalFigures?: boolean;
}

export const SANDBOX_NOTE =
  ':test_tube: *Sandbox data*: made-up items and contacts, not a real ERP';

/** The footer of every card and list: when the data was fetched, and "Sandbox data". */
export function footer(freshness: Freshness, display: DisplayOptions): ContextBlock {
  return display.sandbox
    ? context(freshnessLine(freshness), SANDBOX_NOTE)
    : context(freshnessLine(freshness));
}

/** The sandbox note where a phone line is short: what "Sandbox data" means is in help. */
const SANDBOX_SHORT = ':test_tube: *Sandbox data*';

/**
 * The one-line footer of a card on a phone: when the data was fetched (relative on a private
 * card, which is read now; absolute on a shared one, which is read later), and "Sandbox data".
 */
export function shortFooter(
  freshness: Freshness,
  display: DisplayOptions,
  shared: boolean,
): ContextBlock {
  const line = shortFreshnessLine(freshness, shared);
  return context(display.sandbox ? `${line} · ${SANDBOX_SHORT}` : line);
}

/**
 * Cost is internal: only for a full member, on their private card, or on a card they share
 * when the workspace allows sharing it.
 */
export function showsCost(shared: boolean, display: DisplayOptions): boolean {
  return display.internalFigures === true && (!shared || display.shareCost === true);
}

/** Account terms are internal, like cost, under their own switch (SHARE_ACCOUNT_TERMS). */
export function showsAccountTerms(shared: boolean, display: DisplayOptions): boolean {
  return display.internalFigures === true && (!shared || display.shareAccountTerms === true);
}
