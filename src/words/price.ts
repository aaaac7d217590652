/**
 * Price questions: "price of WIDGET-9", "how much is WIDGET-9", "what do we sell WIDGET-9
 * for", "how much does WIDGET-9 cost", "WIDGET-9 rrp". The item's sell price is the answer's
 * first line (the cost is an internal figure and stays where the card shows it). A "how much"
 * that asks about stock ("how much WIDGET-9 is left", "how much do we have") is no price.
 */
import type { Marks } from './parts.js';
import type { Token } from './tokens.js';

const PRICE_WORDS = new Set(['price', 'prices', 'priced', 'pricing', 'rrp', 'retail']);
const SELL_WORDS = new Set(['sell', 'sells', 'selling', 'sold', 'charge', 'charging']);
/** Stock talk: "how much is left", "how much do we have". */
const STOCK_WORDS = new Set([
  'left',
  'remaining',
  'available',
  'avail',
  'stock',
  'instock',
  'have',
  'got',
  'hand',
  'onhand',
  'soh',
  'need',
  'want',
  'order',
]);
/** "how much is", "how much for", "how much does … cost". */
const HOW_MUCH_LINKS = new Set(['is', 'are', 'for', 'does', 'do', 'would', 'will', 'cost']);

/**
 * Whether the sentence asks the price; the price words are marked used, so the stock reader
 * takes none of them for an item's or a branch's.
 */
export function readPriceIntent(tokens: readonly Token[], used: Marks): boolean {
  const words = tokens.map((token) => token.word);
  const priceAt = words.findIndex((word) => PRICE_WORDS.has(word));
  const sellAt = words.findIndex((word) => SELL_WORDS.has(word));
  const howMuch = words.findIndex((word, at) => word === 'how' && words[at + 1] === 'much');
  const asks =
    priceAt >= 0 ||
    (sellAt >= 0 && (words.includes('for') || words.includes('at'))) ||
    (howMuch >= 0 &&
      HOW_MUCH_LINKS.has(words[howMuch + 2] ?? '') &&
      !words.some((word) => STOCK_WORDS.has(word)));
  if (!asks) return false;
  words.forEach((word, at) => {
    if (PRICE_WORDS.has(word) || SELL_WORDS.has(word) || word === 'cost') used[at] = true;
  });
  return true;
}
