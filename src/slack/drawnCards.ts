/**
 * Item cards already drawn. A cached lookup hands back the same `item` object until the item
 * is fetched again, so a popular item's card is drawn once per state, not once per request
 * (drawing showed in the profile of a cached /stock). The views stay pure functions; this
 * only remembers their answers.
 *
 * Bounded by count: a card is at most about 12,000 characters (the views' budgets in
 * itemParts.ts), typically 3,000, so 256 cards hold about 2 MiB. An entry is used only for
 * the very `item` object it was drawn from: a new fetch is always drawn afresh.
 */
import { LRUCache } from 'lru-cache';
import type { Item } from '../erp/schemas.js';
import { type ItemCardModel, itemCard } from '../views/itemCard.js';
import type { SlackMessage } from '../views/message.js';

const drawn = new LRUCache<string, { item: Item; card: SlackMessage }>({ max: 256 });

export function drawnItemCard(model: ItemCardModel): SlackMessage {
  const key = cardKey(model);
  const known = drawn.get(key);
  if (known?.item === model.item) return known.card;
  const card = itemCard(model);
  drawn.set(key, { item: model.item, card });
  return card;
}

/**
 * Everything a card depends on besides the item object (the model's `now` is not shown).
 * Typed over the model's keys: a new field must be added here too, or this fails to compile.
 * Joined with spaces, not JSON.stringify (which cost more than the rest of a cached answer):
 * the only free text, codes on the drill-down path, comes last, as JSON.
 */
function cardKey(model: ItemCardModel): string {
  const { freshness } = model;
  const parts: Record<Exclude<keyof ItemCardModel, 'item' | 'now'>, string | number | boolean> = {
    freshness: `${freshness.fetchedAt.getTime()}.${freshness.fromCache}.${freshness.stale}.${freshness.staleBecause}`,
    sandbox: model.sandbox === true,
    shareCost: model.shareCost === true,
    shareAccountTerms: model.shareAccountTerms === true,
    // Never serve a member's card, with its cost, to anyone else.
    internalFigures: model.internalFigures === true,
    branchView: model.branchView ?? 'best',
    branchPage: model.branchPage ?? 0,
    bomPage: model.bomPage ?? 0,
    part: model.part ?? '',
    price: model.price ?? '',
    // Worked out from the item and the question, both already in the key.
    verdict: '',
    shared: model.shared === true,
    question: model.question
      ? `${model.question.quantity ?? ''}/${(model.question.branchWords ?? []).join(' ')}`
      : '',
    threadTs: model.threadTs ?? '',
    channelId: model.channelId ?? '',
    pathPages: model.pathPages?.join(',') ?? '',
    path: model.path && model.path.length > 0 ? JSON.stringify(model.path) : '',
  };
  return `${model.item.code} ${Object.values(parts).join(' ')}`;
}
