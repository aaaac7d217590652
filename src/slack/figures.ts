/**
 * Whether a card may carry internal figures (an item's cost, a contact's account terms) for
 * this viewer: the one decision every listener that draws a card asks for. The default keeps
 * the cards as they are: every figure on a viewer's own private card, and on a card shared
 * to a channel only with SHARE_COST. A policy given in `ListenerDeps.internalFigures` (for
 * example one that also weighs guests and other workspaces) replaces it.
 */
import type { ListenerDeps } from './deps.js';
import type { Actor } from './payloads.js';

export interface CardViewer {
  actor: Actor;
  /** The card goes to a channel (everyone in it reads it), not to this viewer alone. */
  shared: boolean;
}

export type InternalFiguresPolicy = (viewer: CardViewer) => boolean;

export function internalFiguresFor(
  deps: Pick<ListenerDeps, 'display' | 'internalFigures'>,
  viewer: CardViewer,
): boolean {
  if (deps.internalFigures) return deps.internalFigures(viewer);
  return !viewer.shared || deps.display?.shareCost === true;
}
