/**
 * Usage help for `/stock` and `/contact`, taught with the connected ERP's own codes: the
 * sandbox's examples when the app runs against it, else codes from the app's catalogue index.
 * Without any, the help shows placeholders in brackets (`[item code]`), written so nobody
 * types them literally, never another company's codes that would find nothing here.
 */
import type { KnownBlock } from '@slack/types';
import { context, divider, header, REFERENCE_HEADER, section } from './blocks.js';
import { escapeTruncated } from './format.js';
import type { SlackMessage } from './message.js';

export interface HelpExamples {
  itemCodes: string[];
  itemSearches: string[];
  contactCodes: string[];
  contactSearches: string[];
  /** A category id the first item search finds something in (`category:N`). */
  itemCategory?: number;
}

/** What stands for a value when the ERP's own examples are not known (yet). */
const PLACEHOLDERS = {
  itemCode: '[item code]',
  itemSearch: '[words]',
  category: '[id]',
  contactCode: '[account code]',
  contactSearch: '[company or person]',
} as const;

/** A command as inline code; a backtick in an example would end the span. */
function command(text: string): string {
  return `\`${escapeTruncated(text.replaceAll('`', 'ˋ').replace(/\s+/g, ' '), 120)}\``;
}

function pick(values: readonly string[] | undefined): string[] {
  return (values ?? []).filter((v) => v.trim() !== '').slice(0, 2);
}

/** "More to try" with real examples only: placeholders are already in the table above. */
function moreToTry(name: string, examples: readonly string[]): string[] {
  return examples.length === 0
    ? []
    : [`*More to try:* ${examples.map((e) => command(`${name} ${e}`)).join(', ')}`];
}

function rows(lines: ReadonlyArray<readonly [string, string]>): string {
  return lines.map(([example, does]) => `${example}  ${does}`).join('\n');
}

export function stockHelp(examples?: HelpExamples): SlackMessage {
  const codes = pick(examples?.itemCodes);
  const searches = pick(examples?.itemSearches);
  const code = codes[0] ?? PLACEHOLDERS.itemCode;
  const words = searches[0] ?? PLACEHOLDERS.itemSearch;
  const category = examples?.itemCategory ?? PLACEHOLDERS.category;
  const blocks: KnownBlock[] = [
    header('/stock: stock, BOM and kits from the ERP', REFERENCE_HEADER),
    section(
      rows([
        [
          command(`/stock ${code}`),
          'the item card: available, on order, the best branches; *Bill of materials* and *Kits* buttons',
        ],
        [command(`/stock ${code} [branch]`), 'the card with that branch first'],
        [
          command(`/stock ${code} 50 [branch]`),
          'can 50 be supplied (at that branch)? A yes or no first, then the card; after a no, the options (one branch, a split, what is on order)',
        ],
        [
          command(`/stock ${code} build 10 [at branch]`),
          'can 10 be built from its bill of materials? The short components, and where they are held',
        ],
        [command('/stock demand'), 'the no answers of the last seven days, by item and branch'],
        [
          command(`/stock ${code}, [item code]`),
          'several codes separated by commas: one line each, up to 5',
        ],
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
        [
          command('/stock suppliers'),
          'the suppliers the app knows, with their ids; `supplier:[name]` works once the id is known',
        ],
        [command('/stock help'), 'this help'],
      ]),
    ),
    section(
      [
        ...moreToTry('/stock', [...codes, ...searches]),
        'A code that does not exist becomes a search for it. *Available* is on hand minus allocated; stock on order has no date, so it never counts. Use *Expand* on a component to drill into its BOM.',
        'Message shortcut *Look up stock*: finds up to 5 item codes in any message.',
      ].join('\n'),
    ),
    watchHelp(code),
    divider(),
    context('Answers are visible only to you until you press *Share to channel*.'),
  ];
  return {
    text: `/stock help: /stock [item code] [quantity] [branch], /stock [item code] build [quantity] [at branch], /stock demand, /stock [code], [code], /stock id:123, /stock [words], category:N, supplier:N, /stock categories, /stock suppliers, /stock watch [item code] below 20, /stock watches, /stock unwatch, /stock digest on|off`,
    blocks,
  };
}

/** The watch forms: watch (with notify), watches, unwatch, digest. */
function watchHelp(code: string): KnownBlock {
  return section(
    `*Watches* (told in this channel)\n${rows([
      [
        command(`/stock watch ${code} below 20 [at branch]`),
        '`above N` when it rises; add `notify @person @group` to mention them',
      ],
      [command('/stock watches'), "this channel's watches, with Remove and Snooze"],
      [command(`/stock unwatch ${code} [at branch]`), 'removes a watch (asks first when several)'],
      [
        command('/stock digest on 08:00 [zone] [demand]'),
        'one message a day listing the watches past their threshold (`demand`: and the week’s unmet demand); `digest off` stops it',
      ],
    ])}`,
  );
}

export function contactHelp(examples?: HelpExamples): SlackMessage {
  const codes = pick(examples?.contactCodes);
  const searches = pick(examples?.contactSearches);
  const code = codes[0] ?? PLACEHOLDERS.contactCode;
  const words = searches[0] ?? PLACEHOLDERS.contactSearch;
  const blocks: KnownBlock[] = [
    header('/contact: customers and suppliers from the ERP', REFERENCE_HEADER),
    section(
      rows([
        [command(`/contact ${code}`), 'the contact card: account, terms, people'],
        [
          command(`/contact ${code} [role or name]`),
          'only the people whose name, role or department matches, e.g. accounts',
        ],
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
        ...moreToTry('/contact', [...codes, ...searches]),
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
    text: '/contact help: /contact [account code] [person words], /contact id:123, /contact [words], type:client, type:supplier',
    blocks,
  };
}

/** `/stock suppliers`, `watch`, `watches`, `unwatch` before their part of the app is on. */
export function watchesNotReadyText(
  kind: 'suppliers' | 'watch' | 'watches' | 'unwatch' | 'digest',
): string {
  return kind === 'suppliers'
    ? 'The supplier list is not available yet: search with supplier:N meanwhile.'
    : 'Watches are not available yet on this app.';
}
