/**
 * What the words on a card depend on besides the data: whether the ERP is the built-in
 * sandbox, and whether cost may be shown to a channel. Listeners pass these through the
 * view models; the views decide what that means for each message.
 */
import type { ContextBlock } from '@slack/types';
import type { Freshness } from '../lookup/types.js';
import { context } from './blocks.js';
import { freshnessLine } from './format.js';

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
