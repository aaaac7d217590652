/**
 * Things worth trying against a sandbox, derived from its data so they hold for any seed:
 * fixed well-known records first, then a few generated ones.
 */
import { ENCODING_CODES } from './dataFixed.js';
import { FIXED_CONTACT_CODES } from './dataFixedContacts.js';
import type { SandboxData, SandboxItem } from './types.js';

export interface SandboxExamples {
  itemCodes: string[];
  bomItemCodes: string[];
  itemSearches: string[];
  /** The category of the first item search's results, for `category:N` examples. */
  itemCategory: number;
  contactCodes: string[];
  contactSearches: string[];
}

/** Levels of BOM below an item: 0 for a part, 1 when its components are all parts. */
export function bomDepth(
  code: string,
  byCode: ReadonlyMap<string, SandboxItem>,
  seen = new Set<string>(),
): number {
  const item = byCode.get(code);
  if (!item || item.record.bom.length === 0 || seen.has(code)) return 0;
  const next = new Set(seen).add(code);
  return (
    1 + Math.max(...item.record.bom.map((component) => bomDepth(component.code, byCode, next)))
  );
}

export function sandboxExamples(data: SandboxData): SandboxExamples {
  const byCode = new Map(data.items.map((item) => [item.record.code, item]));
  const deepest = data.items.find(
    (item) => item.record.has_bom && bomDepth(item.record.code, byCode) === 4,
  );
  const fixed = new Set<string>(FIXED_CONTACT_CODES);
  const generatedPerson = data.contacts.find(
    (contact) => !fixed.has(contact.record.code) && contact.record.addressbook.length > 2,
  )?.record.addressbook[0]?.name;
  return {
    itemCodes: [
      'WIDGET-9',
      'WIDGET-90',
      'WIDGET-9-OLD',
      'PLANT-88',
      ...ENCODING_CODES,
      'EVIL-CHANNEL',
    ],
    bomItemCodes: [
      'WIDGET-9',
      'WIDGET-9-CORE',
      'PLANT-88',
      ...(deepest ? [deepest.record.code] : []),
    ],
    itemSearches: ['blue widget', 'widget 9', 'bolt m8', 'stainless valve', 'cable'],
    itemCategory: data.categories.find((category) => category.name === 'Widgets')?.id ?? 2,
    contactCodes: ['ACME01', 'ACMEWH01', 'BIGCO01', 'INTL01', 'R&D/01'],
    contactSearches: [
      'acme',
      'big mining',
      'jane citizen',
      ...(generatedPerson ? [generatedPerson] : []),
    ],
  };
}
