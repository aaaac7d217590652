/**
 * Search results: the query and filters on top, one row per result with its key figures and
 * a "View" button, then "‹ Previous" / "Next ›". Paging state rides in the buttons; whether a
 * next page exists comes from the Page (never from the ERP's `count`).
 */
import type { Button, KnownBlock, SectionBlock } from '@slack/types';
import type { ContactSearchRow, ItemSearchRow } from '../erp/schemas.js';
import type { ContactQuery, Freshness, ItemQuery, Page } from '../lookup/types.js';
import type { UnsearchableKind } from '../rules/people.js';
import {
  ACTION,
  type ActionBase,
  actionId,
  type ButtonState,
  type CardQuestion,
  contactSearchState,
  contactState,
  itemSearchState,
  itemState,
} from './actions.js';
import { actions, LIMITS, md, section, stateButton } from './blocks.js';
import {
  codeSpan,
  type DisplayOptions,
  escapeTruncated,
  footer,
  formatMoney,
  formatQty,
  freshnessText,
  oneLine,
  oneLineAtWord,
  plural,
  statusLabel,
} from './format.js';
import { availablePhrase } from './itemParts.js';
import type { SlackMessage } from './message.js';
import { redactContactRow } from './redact.js';

/** Slack pages are 10 rows; a caller's bigger page is cut so the message stays small. */
const MAX_ROWS = 20;

interface ListModel<Q, R> extends DisplayOptions {
  query: Q;
  page: Page<R>;
  freshness: Freshness;
  now: Date;
  /**
   * The app ran this search because no record has the code the user typed. With results it
   * reads as any search ("Contacts matching “acme”"); "not found" is said only when nothing
   * matched at all.
   */
  fromCode?: boolean;
  /** A line shown above the list (escaped here). */
  notice?: string;
  /**
   * Known codes close to the one typed (`WIDGT-9` → `WIDGET-9`), offered as buttons when
   * nothing matched: items only.
   */
  suggestions?: readonly string[];
  /**
   * The question the suggested codes answer when pressed (`/stock WIDGT-9 50 perth`): the
   * same quantity and branch, for the code meant.
   */
  suggestionQuestion?: CardQuestion;
}

/** A person whose name or role matched a contact search (contacts only). */
export interface MatchedPerson {
  name: string;
  role: string;
}

interface ContactListModel extends ListModel<ContactQuery, ContactSearchRow> {
  /** By contact code: the people who matched the words, for rows the search found by a person. */
  people?: ReadonlyMap<string, readonly MatchedPerson[]>;
  /**
   * Codes of rows whose own company and code do not hold the words, past the few rows a page
   * whose people are looked up: found by a person or the trading name, who is not known here.
   */
  notLookedUp?: ReadonlySet<string>;
  /** Nothing found, and the words were a phone number, e-mail or ABN: say the ERP cannot. */
  unsearchable?: UnsearchableKind;
}

const UNSEARCHABLE: Readonly<Record<UnsearchableKind, string>> = {
  phone: 'phone numbers',
  email: 'e-mail addresses',
  abn: 'ABNs',
};

export function itemSearchList(model: ListModel<ItemQuery, ItemSearchRow>): SlackMessage {
  const described = describeItemQuery(model.query);
  const rows = model.page.rows.slice(0, MAX_ROWS);
  return list(model, {
    noun: ['item', 'items'],
    described,
    hint:
      model.query.category !== undefined || model.query.supplier !== undefined
        ? 'Try fewer words, a part of the code, or drop a filter: every word must match the code or description.'
        : 'Try fewer words or a part of the code: every word must match the code or description.',
    rows: rows.map((row, i) => itemRow(row, i)),
    paging: [ACTION.itemPrevPage, ACTION.itemNextPage],
    state: (offset) => itemSearchState(model.query, offset),
    suggestions: model.suggestions,
    suggestionQuestion: model.suggestionQuestion,
  });
}

export function contactSearchList(model: ContactListModel): SlackMessage {
  const described = describeContactQuery(model.query);
  const rows = model.page.rows.slice(0, MAX_ROWS).map(redactContactRow);
  return list(model, {
    noun: ['contact', 'contacts'],
    described,
    hint:
      model.unsearchable === undefined
        ? 'Try fewer words, or part of the company name or code.'
        : `The ERP cannot search contacts by ${UNSEARCHABLE[model.unsearchable]}: try the company's name or code (\`/contact acme\`), or a person's name.`,
    rows: rows.map((row, i) => contactRow(row, i, personMatch(model, row.code), model.query)),
    paging: [ACTION.contactPrevPage, ACTION.contactNextPage],
    state: (offset) => contactSearchState(model.query, offset),
  });
}

interface ListParts {
  noun: [string, string];
  /** Escaped mrkdwn: the words in quotes and the filters. */
  described: string;
  hint: string;
  rows: SectionBlock[];
  paging: [ActionBase, ActionBase];
  state: (offset: number) => ButtonState;
  suggestions?: readonly string[];
  suggestionQuestion?: CardQuestion;
}

function list<Q, R>(model: ListModel<Q, R>, parts: ListParts): SlackMessage {
  const { page } = model;
  const [one, many] = parts.noun;
  const notice = model.notice ? section(`:mag: ${escapeTruncated(model.notice, 500)}`) : undefined;
  const empty = page.rows.length === 0;
  const nothing = model.fromCode
    ? `*Nothing found:* no ${one} has the code ${parts.described}, and no ${one} matches it`
    : `*No ${many} match* ${parts.described}`;
  const title = empty
    ? `${nothing}.\n${parts.hint}`
    : `*${capitalise(many)} matching* ${parts.described} · ${range(page)}`;
  const suggested = empty ? (parts.suggestions ?? []).slice(0, MAX_SUGGESTIONS) : [];
  // "Did you mean WIDGET-9?" leads: it is the answer the person most likely wanted.
  const blocks: Array<KnownBlock | undefined> = [
    ...(suggested.length > 0 ? didYouMean(suggested, parts.suggestionQuestion) : []),
    notice,
    section(title),
    ...parts.rows,
    footer(model.freshness, model),
    actions(pagingButtons(page, parts)),
  ];
  const plainDescribed = parts.described.replaceAll('*', '');
  const maybe = suggested.length > 0 ? `Did you mean ${suggested.join(' or ')}? ` : '';
  const text = empty
    ? `${maybe}${model.notice ? `${model.notice} ` : ''}${nothing.replaceAll('*', '')}.`
    : `${plural(page.rows.length, one, many)} matching ${plainDescribed} (${range(page)}); ${freshnessText(model.freshness, model.now)}`;
  return {
    text: escapeTruncated(text.replace(/&amp;|&lt;|&gt;/g, decode), LIMITS.fallbackText / 2),
    blocks: blocks.filter((b): b is KnownBlock => b !== undefined),
  };
}

/** Buttons a "did you mean" offers: the nearest few, not a second list. */
const MAX_SUGGESTIONS = 3;

/**
 * "Did you mean WIDGET-9?" and a button for each close code; with a question, each button
 * asks it of that code ("WIDGET-9: 50 at perth?").
 */
function didYouMean(codes: readonly string[], question?: CardQuestion): KnownBlock[] {
  const named = codes.map((code) => codeSpan(code, 40)).join(' or ');
  const buttons = codes.map((code, i) =>
    askButton(code, actionId(ACTION.itemView, 100 + i), question),
  );
  const row = actions(buttons);
  return row ? [section(`Did you mean ${named}?`), row] : [section(`Did you mean ${named}?`)];
}

/**
 * A button for an item offered in place of the one asked about: with a quantity or branch it
 * asks that question of it ("WIDGET-9: 50 at perth?"), else it views it ("View WIDGET-9").
 */
export function askButton(
  code: string,
  action: string,
  question?: CardQuestion,
): Button | undefined {
  const asked = question === undefined ? '' : questionWords(question);
  return stateButton(
    asked ? `${code}: ${asked}?` : `View ${code}`,
    action,
    itemState({ code, id: 0 }, question === undefined ? {} : { question }),
    { accessibilityLabel: asked ? `Ask ${asked} of ${code}` : `View ${code}` },
  );
}

/** "50 at perth", "50", "at perth": the question as typed, for a button label. */
function questionWords(question: CardQuestion): string {
  const words = question.branchWords ?? [];
  const where = words.length > 0 ? `at ${words.join(' ')}` : '';
  return [question.quantity === undefined ? '' : formatQty(question.quantity), where]
    .filter(Boolean)
    .join(' ');
}

/** `described` is already escaped; the fallback is escaped again as a whole, so undo first. */
function decode(entity: string): string {
  return entity === '&amp;' ? '&' : entity === '&lt;' ? '<' : '>';
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * "11–20 of 57", "11–20" while the total is unknown. On the last page the total is known
 * whatever the ERP's `count` meant; a lone row is "1 of 1", not "1–1".
 */
function range(page: Page<unknown>): string {
  const first = page.offset + 1;
  const last = page.offset + page.rows.length;
  const total = page.total ?? (page.hasNext ? undefined : last);
  const span = first === last ? formatQty(first) : `${formatQty(first)}–${formatQty(last)}`;
  return total !== undefined ? `${span} of ${formatQty(total)}` : span;
}

function pagingButtons(page: Page<unknown>, parts: ListParts): Button[] {
  const [prev, next] = parts.paging;
  const size = page.pageSize > 0 ? page.pageSize : Math.max(1, page.rows.length);
  const buttons = [
    page.hasPrevious
      ? stateButton('‹ Previous', prev, parts.state(Math.max(0, page.offset - size)))
      : undefined,
    page.hasNext && page.rows.length > 0
      ? stateButton('Next ›', next, parts.state(page.offset + page.rows.length))
      : undefined,
  ];
  return buttons.filter((b): b is Button => b !== undefined);
}

function quoted(words: readonly string[]): string {
  return words.length > 0 ? `“${escapeTruncated(words.join(' '), 200)}”` : 'your filters';
}

function describeItemQuery(query: ItemQuery): string {
  const filters = [
    query.category !== undefined ? `category ${query.category}` : '',
    query.supplier !== undefined ? `supplier ${query.supplier}` : '',
  ].filter(Boolean);
  return [quoted(query.words), ...filters].join(' · ');
}

function describeContactQuery(query: ContactQuery): string {
  const type = query.type === 'client' ? 'customers' : query.type === 'supplier' ? 'suppliers' : '';
  return [quoted(query.words), type].filter(Boolean).join(' · ');
}

function withView(text: string, button: Button | undefined): SectionBlock {
  return button ? { type: 'section', text: md(text), accessory: button } : section(text);
}

function itemRow(row: ItemSearchRow, index: number): SectionBlock {
  const description = oneLineAtWord(row.description, 120);
  const status = row.status_label === 'Active' ? '' : statusLabel(row.status_label, 'Disabled', 30);
  const first = [`${codeSpan(row.code)}${description ? ` ${description}` : ''}`, status]
    .filter(Boolean)
    .join(' · ');
  const figures = [
    availablePhrase(row.available),
    `${formatQty(row.soh)} on hand`,
    row.onorder !== 0 ? `${formatQty(row.onorder)} on order` : '',
    `sell price ${formatMoney(row.price)}`,
    oneLine(row.category_name, 60),
    oneLine(row.supplier_name, 60),
  ].filter(Boolean);
  const button = stateButton('View', actionId(ACTION.itemView, index), itemState(row), {
    accessibilityLabel: `View ${row.code}`,
  });
  return withView(`${first}\n${figures.join(' · ')}`, button);
}

/** What a row says of the people it was found by: who, only that it may have been, or nothing. */
type PersonMatch = readonly MatchedPerson[] | 'not_looked_up' | undefined;

const personMatch = (model: ContactListModel, code: string): PersonMatch =>
  model.people?.get(code) ?? (model.notLookedUp?.has(code) ? 'not_looked_up' : undefined);

/**
 * A row whose people were not looked up: what matched is not known (a person, or the trading
 * name the rows do not carry), so the line says both and names nobody; one phone line, as the
 * line naming the person is. View opens the card with the people the words match.
 */
const NOT_LOOKED_UP_LINE = ':bust_in_silhouette: Matched by a person or trading name';

/** "Matches *Jane Smith* (Accounts payable) +1 more": who the search found on this row. */
function matchedLine(people: Exclude<PersonMatch, undefined>): string {
  if (people === 'not_looked_up') return NOT_LOOKED_UP_LINE;
  const [first] = people;
  if (first === undefined) return '';
  const role = first.role.trim() === '' ? '' : ` (${oneLine(first.role, 40)})`;
  const more = people.length > 1 ? ` +${formatQty(people.length - 1)} more` : '';
  return `:bust_in_silhouette: Matches *${oneLine(first.name, 60) || 'a person'}*${role}${more}`;
}

function contactRow(
  row: ContactSearchRow,
  index: number,
  people: PersonMatch,
  query: ContactQuery,
): SectionBlock {
  const status =
    row.status_label === 'Active' ? '' : statusLabel(row.status_label, 'Suspended', 30);
  const first = [
    `*${oneLine(row.company, 120) || '—'}*`,
    codeSpan(row.code),
    oneLine(row.account_type, 40),
    status,
  ]
    .filter(Boolean)
    .join(' · ');
  const details = [
    [oneLine(row.address4, 60), oneLine(row.state, 30)].filter(Boolean).join(', '),
    row.salesperson ? `Salesperson ${oneLine(row.salesperson, 60)}` : 'Salesperson _unassigned_',
    plural(row.addressbook_count, 'person', 'people'),
    row.telephone ? `:telephone_receiver: ${oneLine(row.telephone, 40)}` : '',
    row.email ? `:email: ${oneLine(row.email, 80)}` : '',
  ].filter(Boolean);
  // Found by a person (or maybe): View opens the card showing the people who matched.
  const state = people ? contactState(row, 0, query.words) : contactState(row);
  const button = stateButton('View', actionId(ACTION.contactView, index), state, {
    accessibilityLabel: `View ${row.company}`,
  });
  const matched = people ? `\n${matchedLine(people)}` : '';
  return withView(`${first}${matched}\n${details.join(' · ')}`, button);
}
