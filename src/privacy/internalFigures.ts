/**
 * Internal figures: an item's and its components' cost, and a contact's account terms (credit
 * limit, discount, terms, stop credit). A Slack Connect partner or a guest may sit in any
 * channel and press any button on a shared card (View, Expand, All branches, Refresh, the
 * search modal's select), so the figures are drawn only for a full member of the installing
 * workspace, decided per press by membership.ts (users.info against auth.test, cached).
 *
 * The answer is about the person a card is drawn for: the asker of a private card, or the
 * sharer of a shared one. A shared card carries the figures only when SHARE_COST /
 * SHARE_ACCOUNT_TERMS also allow it (the views decide that, from `internalFigures` and the
 * workspace's switches).
 */

import type { AppLogger } from '../log/logger.js';
import {
  createMembership,
  type Membership,
  type SlackMembersApi,
  type Viewer,
} from './membership.js';

export interface InternalFiguresPolicy {
  /** True only for a full member of the installing workspace; every doubt is false. */
  internalFigures(viewer: Viewer | undefined, client: SlackMembersApi): Promise<boolean>;
}

export interface InternalFiguresOptions {
  /** Shared with the reveal policy, so that one users.info answer serves both. */
  membership?: Membership;
  /** For a membership of its own, when none is passed. */
  logger: AppLogger;
}

export function createInternalFigures(options: InternalFiguresOptions): InternalFiguresPolicy {
  const membership = options.membership ?? createMembership({ logger: options.logger });
  return {
    async internalFigures(viewer, client) {
      if (viewer === undefined) return false;
      try {
        return (await membership.standing(viewer, client)).standing === 'member';
      } catch {
        return false;
      }
    },
  };
}
