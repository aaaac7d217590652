/**
 * The item card's lines below the branches: the sell price beside the internal cost, the
 * price answer that leads when the price was asked, and the muted details (totals, category,
 * supplier, supplier codes). Pure, like every view.
 */
import type { KnownBlock } from '@slack/types';
import type { Item } from '../erp/schemas.js';
import { context, section } from './blocks.js';
import { codeSpan, formatMoney, formatQty, oneLine } from './format.js';

/** The sell price beside the internal cost, on one line; nothing when neither is shown. */
export function priceLine(
  item: Item,
  price: number | undefined,
  showCost: boolean,
): KnownBlock | undefined {
  const parts = [
    price === undefined ? '' : `Sell *${formatMoney(price)}*`,
    showCost ? `Cost (internal) ${formatMoney(item.cost)}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? section(parts.join(' · ')) : undefined;
}

/** "*WIDGET-9* sells for *$12.50*", or that the ERP gave no sell price for it. */
export function priceAnswer(code: string, price: number | undefined, bold: boolean): string {
  const shown = bold ? `*${codeSpan(code, 30)}*` : code;
  if (price === undefined) return `The ERP gave no sell price for ${shown}`;
  return bold
    ? `${shown} sells for *${formatMoney(price)}*`
    : `${code} sells for ${formatMoney(price)}`;
}

/** The rest of the totals and who supplies it, muted. */
export function details(item: Item): KnownBlock {
  const parts = [
    `On hand ${formatQty(item.soh)}`,
    `Allocated ${formatQty(item.allocated)}`,
    oneLine(item.category, 30),
    item.primarysupplier ? `Supplier ${oneLine(item.primarysupplier, 30)}` : '',
    readableSupplierCodes(item.supplierCodes),
  ];
  return context(parts.filter(Boolean).join(' · '));
}

/**
 * `supplierCodes` elements have no documented shape: strings, numbers and objects with a
 * string `code` are shown (three at most); anything else is left out rather than shown as
 * `[object Object]`.
 */
function readableSupplierCodes(codes: readonly unknown[]): string {
  const readable = codes
    .map((entry) => {
      if (typeof entry === 'string' || typeof entry === 'number') return String(entry);
      if (typeof entry === 'object' && entry !== null && 'code' in entry) {
        const code = (entry as { code: unknown }).code;
        return typeof code === 'string' ? code : '';
      }
      return '';
    })
    .filter((code) => code.trim() !== '');
  if (readable.length === 0) return '';
  const shown = readable.slice(0, 3).map((code) => codeSpan(code, 20));
  const more = readable.length > 3 ? ` +${readable.length - 3}` : '';
  return `Supplier codes ${shown.join(', ')}${more}`;
}
