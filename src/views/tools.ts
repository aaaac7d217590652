/**
 * The words of the tools Slack's agent calls (src/mcp/): plain text, read by a language model
 * and shown by Slackbot to whoever asked, so each is what a shared message may show: no cost,
 * no phone, no e-mail, no account terms (stop credit only where SHARE_ACCOUNT_TERMS lets a
 * shared card show it). Pure: the tools hand these functions finished data.
 */
import type { AddressbookEntry, Contact, ContactSearchRow, ItemSearchRow } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import type { StockVerdict } from '../rules/stock.js';
import { stripBidiControls, truncatePlain } from './blocks.js';
import { type DisplayOptions, formatMoney, formatQty, freshnessText, plural } from './format.js';
import { coverLine, verdictSentence } from './itemParts.js';
import { planOptionLine } from './planParts.js';
import { type WatchSummary, watchName } from './watchWords.js';

/** ERP text on one line, plain: the tool text is not mrkdwn. */
const plainLine = (text: string, max: number): string =>
  truncatePlain(stripBidiControls(text).replace(/\s+/g, ' ').trim(), max);

// A person's or a company's free-text field may hold a number or an address typed into it;
// the tool text never carries either, whatever field it sits in.
const EMAIL = /[^\s@<>()[\]]+@[^\s@<>()[\]]+\.[^\s@<>()[\]]+/g;
const PHONE = /\+?\d[\d ()./-]{6,}\d/g;

/** Free text of a contact with anything that looks like an e-mail address or a number cut. */
function withoutReach(text: string, max: number): string {
  return plainLine(
    text.replace(EMAIL, '[e-mail not shown]').replace(PHONE, '[number not shown]'),
    max,
  );
}

/** "figures fetched 5 min ago" when the answer came from the cache while the ERP was away. */
function freshnessNote(freshness: Freshness, now: Date): string {
  return freshness.stale ? ` (${freshnessText(freshness, now)})` : '';
}

export interface StockToolModel {
  verdict: StockVerdict;
  freshness: Freshness;
  /** When the answer is given: a stale answer's age is said relative to it. */
  now: Date;
  /** The item's sell price, when the catalogue index has one. */
  price?: number | undefined;
  display?: DisplayOptions;
}

/**
 * `check_stock`: the verdict sentence the card and the workflow step give, the branches that
 * could cover it, the plan's options after a No, the description, the sell price where known.
 */
export function stockToolText(model: StockToolModel): string {
  const { verdict } = model;
  const lines = [
    `${verdictSentence(verdict)}${freshnessNote(model.freshness, model.now)}`,
    `${plainLine(verdict.code, 60)}: ${plainLine(verdict.description, 200) || 'no description'}.`,
  ];
  const covering = verdict.coveringBranches;
  // coverLine (in the sentence) is cut for a phone; the tool lists every branch that could.
  if (covering.length > 0 && coverLine(verdict) !== '') {
    const names = covering
      .slice(0, 10)
      .map((b) => `${plainLine(b.name, 40)} (${formatQty(b.available)} free)`);
    const more = covering.length > 10 ? `, ${plural(covering.length - 10, 'more')}` : '';
    lines.push(`Branches that could cover it alone: ${names.join(', ')}${more}.`);
  }
  // The same plan the card shows (at most three options); on-order stock is never counted.
  const options = verdict.plan.slice(0, 3).map((o) => `- ${plainLine(planOptionLine(o), 120)}`);
  if (options.length > 0) lines.push('Options to fill it:', ...options);
  if (model.price !== undefined) lines.push(`Sell price: ${formatMoney(model.price)}.`);
  if (model.display?.sandbox) lines.push('Sandbox data: every figure is invented.');
  return lines.join('\n');
}

/** `check_stock` with branch words that name none of the item's branches. */
export function unknownBranchToolText(
  code: string,
  branch: string,
  branchNames: readonly string[],
): string {
  const names = branchNames.slice(0, 12).map((n) => plainLine(n, 40));
  const known = names.length === 0 ? 'it lists no branches' : `its branches: ${names.join(', ')}`;
  return `“${plainLine(branch, 60)}” is not a branch of ${plainLine(code, 60)} (${known}). Ask again with one of them, or without a branch for the company-wide figure.`;
}

export function unknownItemToolText(code: string, nearest: readonly string[] = []): string {
  const near = nearest.length > 0 ? ` Nearest known codes: ${nearest.slice(0, 5).join(', ')}.` : '';
  return `No item has the code ${plainLine(code, 60)}.${near} find_items searches by words.`;
}

export interface ItemsToolModel {
  words: readonly string[];
  rows: readonly Pick<ItemSearchRow, 'code' | 'description' | 'available'>[];
  /** More rows exist than were listed. */
  more: boolean;
  freshness: Freshness;
  /** When the answer is given: a stale answer's age is said relative to it. */
  now: Date;
  /** From the app's catalogue index rather than a fresh ERP search. */
  fromIndex: boolean;
  display?: DisplayOptions;
  /** A filter resolved by name: "Supplier: Acme Fasteners (id 12)". */
  notes?: readonly string[];
}

/** `find_items`: up to ten codes, each with its description and what is available. */
export function itemsToolText(model: ItemsToolModel): string {
  const asked = plainLine(model.words.join(' '), 100);
  const notes = (model.notes ?? []).map((n) => `${n}\n`).join('');
  if (model.rows.length === 0) {
    return `${notes}No item matches “${asked}”. Try fewer or other words.`;
  }
  const lines = model.rows.map(
    (row) =>
      `- ${plainLine(row.code, 60)}: ${plainLine(row.description, 120) || 'no description'}; ${formatQty(Math.max(row.available, 0))} available`,
  );
  const source = model.fromIndex
    ? ' (from the app’s catalogue index; check_stock gives current figures)'
    : freshnessNote(model.freshness, model.now);
  const more = model.more ? '\nMore items match: add words to narrow it down.' : '';
  const sandbox = model.display?.sandbox ? '\nSandbox data: every figure is invented.' : '';
  return `${notes}${plural(model.rows.length, 'item')} matching “${asked}”${source}:\n${lines.join('\n')}${more}${sandbox}`;
}

/** `find_items` with a category or supplier that names none the app knows (or several). */
export function filterProblemToolText(
  filter: 'category' | 'supplier',
  typed: string,
  candidates: readonly string[],
): string {
  const near =
    candidates.length > 0
      ? ` Known ${filter === 'category' ? 'categories' : 'suppliers'} close to it: ${candidates
          .slice(0, 8)
          .map((c) => plainLine(c, 60))
          .join(', ')}.`
      : '';
  return `No single ${filter} is named “${plainLine(typed, 60)}”.${near} The search was not run.`;
}

export interface ContactToolModel {
  contact: Contact;
  freshness: Freshness;
  /** When the answer is given: a stale answer's age is said relative to it. */
  now: Date;
  /** The role words asked, if any. */
  roleWords: readonly string[];
  /** The people matching them (all of them without role words). */
  people: readonly AddressbookEntry[];
  /** Whether a shared card may show stop credit (SHARE_ACCOUNT_TERMS). */
  showStopCredit: boolean;
  display?: DisplayOptions;
}

/** People listed before the rest are counted. */
const MAX_PEOPLE = 15;

function personText(person: AddressbookEntry): string {
  const name = withoutReach([person.salutation, person.name].filter(Boolean).join(' '), 60);
  const parts = [
    name || '(no name)',
    withoutReach(person.role, 50),
    withoutReach(person.department, 50),
    person.status_label.trim() !== '' && person.status_label.trim() !== 'Active'
      ? plainLine(person.status_label, 30)
      : '',
  ];
  return `- ${parts.filter(Boolean).join(', ')}`;
}

/**
 * `find_contact`: the account (company, code, type, status), its salesperson and the matching
 * people's names and roles; never how to reach them.
 */
export function contactToolText(model: ContactToolModel): string {
  const { contact } = model;
  const company = withoutReach(contact.company, 120) || plainLine(contact.code, 60);
  const account = [
    `${company} (${plainLine(contact.code, 60)})`,
    plainLine(contact.account_type, 60),
    plainLine(contact.status_label, 40),
  ]
    .filter(Boolean)
    .join(', ');
  const lines = [`${account}${freshnessNote(model.freshness, model.now)}.`];
  if (model.showStopCredit) {
    lines.push(contact.stopcred !== 0 ? 'On stop credit.' : 'Not on stop credit.');
  }
  if (contact.salesperson) lines.push(`Salesperson: ${withoutReach(contact.salesperson, 60)}.`);
  const asked = plainLine(model.roleWords.join(' '), 60);
  if (model.people.length === 0) {
    lines.push(
      model.roleWords.length > 0
        ? `Nobody at ${company} matches “${asked}”.`
        : `No people are listed for ${company}.`,
    );
  } else {
    const heading = model.roleWords.length > 0 ? `People matching “${asked}”` : 'People';
    lines.push(`${heading}:`, ...model.people.slice(0, MAX_PEOPLE).map(personText));
    if (model.people.length > MAX_PEOPLE) {
      lines.push(`and ${plural(model.people.length - MAX_PEOPLE, 'more person', 'more people')}.`);
    }
  }
  lines.push(
    'Phone numbers and e-mail addresses are not shown here: /contact in Slack shows them to those allowed.',
  );
  if (model.display?.sandbox) lines.push('Sandbox data: every name is invented.');
  return lines.join('\n');
}

/** `find_contact` when the words name no account, or several. */
export function accountsToolText(
  asked: string,
  rows: readonly Pick<ContactSearchRow, 'code' | 'company' | 'account_type' | 'status_label'>[],
  more: boolean,
): string {
  const words = plainLine(asked, 100);
  if (rows.length === 0) return `No account matches “${words}”. Try its code or other words.`;
  const lines = rows.map(
    (row) =>
      `- ${withoutReach(row.company, 100) || plainLine(row.code, 60)} (${plainLine(row.code, 60)}), ${plainLine(row.account_type, 40)}, ${plainLine(row.status_label, 30)}`,
  );
  const tail = more ? '\nMore accounts match.' : '';
  return `Several accounts match “${words}”; ask again with one code:\n${lines.join('\n')}${tail}`;
}

/** `list_watches`: the person's own watches. */
export function watchesToolText(watches: readonly WatchSummary[]): string {
  if (watches.length === 0) return 'You have no stock watches.';
  const lines = watches.map((w) => {
    const state =
      w.state === 'off' ? 'stopped' : w.state === 'past' ? 'past its threshold' : 'watching';
    const last =
      w.lastAvailable === undefined ? '' : `; last seen ${formatQty(w.lastAvailable)} available`;
    return `- ${plainLine(watchName(w), 100)}: tells when it goes ${w.direction} ${formatQty(w.threshold)} (${state}${last})`;
  });
  return `Your ${plural(watches.length, 'watch', 'watches')}:\n${lines.join('\n')}`;
}

/** A call that names no Slack user: the tools answer for a person, never for an argument. */
export function noSlackUserToolText(): string {
  return 'This tool answers for the Slack user who asks, and this call names none: it must come from Slack (Slackbot).';
}
