/**
 * Whether a card may carry internal figures (an item's cost, a contact's account terms) for
 * the person it is drawn for: the one decision every listener that draws a card asks for.
 * The policy (`ListenerDeps.internal`, from privacy/internalFigures.ts) says yes only for a
 * full member of the installing workspace; without one, nobody sees them. Whether a shared
 * card shows them as well is the views' call (SHARE_COST, SHARE_ACCOUNT_TERMS).
 */
import type { SlackMembersApi } from '../privacy/membership.js';
import type { ListenerDeps } from './deps.js';
import type { Actor } from './payloads.js';

export function internalFiguresFor(
  deps: Pick<ListenerDeps, 'internal'>,
  actor: Actor,
  client: SlackMembersApi,
): Promise<boolean> {
  const viewer = { userId: actor.userId, teamId: actor.userTeamId };
  return deps.internal?.internalFigures(viewer, client) ?? Promise.resolve(false);
}
