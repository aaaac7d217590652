/**
 * Usage help for `/stock` and `/contact` (the grammar of PRODUCT.md), with examples from the
 * sandbox's data when the app runs against it, so that every example works.
 */
import type { KnownBlock } from '@slack/types';
import { context, divider, header, section } from './blocks.js';
import type { SlackMessage } from './message.js';
import { escapeTruncated } from './mrkdwn.js';

export interface HelpExamples {
  itemCodes: string[];
  itemSearches: string[];
  contactCodes: string[];
  contactSearches: string[];
  /** A category id the first item search finds something in (`category:N`). */
  itemCategory?: number;
}

/** The README's and the manifest's examples; all of them find something in the sandbox. */
const DEFAULTS: Required<HelpExamples> = {
  itemCodes: ['WIDGET-9'],
  itemSearches: ['blue widget'],
  contactCodes: ['ACME01'],
  contactSearches: ['acme'],
  itemCategory: 2,
};

/** A command as inline code; a backtick in an example would end the span. */
function command(text: string): string {
  return `\`${escapeTruncated(text.replaceAll('`', 'ˋ').replace(/\s+/g, ' '), 120)}\``;
}

function pick(values: readonly string[] | undefined, fallback: string[]): string[] {
  const usable = (values ?? []).filter((v) => v.trim() !== '').slice(0, 2);
  return usable.length > 0 ? usable : fallback;
}

function rows(lines: ReadonlyArray<readonly [string, string]>): string {
  return lines.map(([example, does]) => `${example}  ${does}`).join('\n');
}

export function stockHelp(examples?: HelpExamples): SlackMessage {
  const codes = pick(examples?.itemCodes, DEFAULTS.itemCodes);
  const searches = pick(examples?.itemSearches, DEFAULTS.itemSearches);
  const code = codes[0] ?? 'WIDGET-9';
  const words = searches[0] ?? 'blue widget';
  const category = examples?.itemCategory ?? DEFAULTS.itemCategory;
  const blocks: KnownBlock[] = [
    header('/stock: stock, BOM and kits from the ERP'),
    section(
      rows([
        [command(`/stock ${code}`), 'the item card: stock by branch, BOM, kits'],
        [command('/stock id:123'), 'or `#123`: by the ERP’s internal id'],
        [command(`/stock ${words}`), 'search: every word must match the code or description'],
        [
          command(`/stock ${words} category:${category}`),
          'filters `category:N` and `supplier:N`, with words (an ERP may also take them alone)',
        ],
        [
          command('/stock categories'),
          'the item categories with their ids, for `category:N` (learned in the first minutes)',
        ],
        [command('/stock help'), 'this help'],
      ]),
    ),
    section(
      [
        `*More to try:* ${[...codes, ...searches].map((e) => command(`/stock ${e}`)).join(', ')}`,
        'A code that does not exist becomes a search for it. Use *Expand* on a component to drill into its BOM.',
        'Message shortcut *Look up stock*: finds up to 5 item codes in any message.',
      ].join('\n'),
    ),
    divider(),
    context('Answers are visible only to you until you press *Share to channel*.'),
  ];
  return {
    text: `/stock help: /stock CODE, /stock id:123, /stock words, category:N, supplier:N, /stock categories`,
    blocks,
  };
}

export function contactHelp(examples?: HelpExamples): SlackMessage {
  const codes = pick(examples?.contactCodes, DEFAULTS.contactCodes);
  const searches = pick(examples?.contactSearches, DEFAULTS.contactSearches);
  const code = codes[0] ?? 'ACME01';
  const words = searches[0] ?? 'acme';
  const blocks: KnownBlock[] = [
    header('/contact: customers and suppliers from the ERP'),
    section(
      rows([
        [command(`/contact ${code}`), 'the contact card: account, terms, people'],
        [command('/contact id:123'), 'or `#123`: by the ERP’s internal id'],
        [command(`/contact ${words}`), 'search by company, person, code or trading name'],
        [
          command(`/contact ${words} type:client`),
          'filters `type:client` (or `customer`) and `type:supplier`',
        ],
        [command('/contact help'), 'this help'],
      ]),
    ),
    section(
      [
        `*More to try:* ${[...codes, ...searches].map((e) => command(`/contact ${e}`)).join(', ')}`,
        'A code that does not exist becomes a search for it.',
        ':lock: Phone numbers and e-mail addresses are hidden; *Reveal details* shows them to you alone.',
      ].join('\n'),
    ),
    divider(),
    context(
      'Answers are visible only to you until you press *Share to channel*; shared cards stay redacted.',
    ),
  ];
  return {
    text: '/contact help: /contact CODE, /contact id:123, /contact words, type:client, type:supplier',
    blocks,
  };
}

/** `/stock suppliers`, `watch`, `watches`, `unwatch` before their part of the app is on. */
export function watchesNotReadyText(kind: 'suppliers' | 'watch' | 'watches' | 'unwatch'): string {
  return kind === 'suppliers'
    ? 'The supplier list is not available yet: search with supplier:N meanwhile.'
    : 'Watches are not available yet on this app.';
}

/** `supplier:acme` before supplier names can be resolved to the ERP's ids. */
export function supplierNameUnknownText(name: string): string {
  return `Supplier names cannot be looked up yet, so “${name.slice(0, 40)}” was not used: filter with the supplier’s id, for example supplier:12.`;
}
