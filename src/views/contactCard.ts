/**
 * The contact card. Always redacted: it calls `redactContact` itself, so whatever the caller
 * passes, no phone number or e-mail address leaves here in full. The full details go only to
 * `contactReveal`, for the ephemeral answer to "Reveal details".
 */
import type { Button, KnownBlock } from '@slack/types';
import type { AddressbookEntry, Contact } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import { ACTION, actionId, contactState } from './actions.js';
import { actions, context, LIMITS, packLines, section, stateButton } from './blocks.js';
import {
  codeSpan,
  type DisplayOptions,
  escapeTruncated,
  formatExact,
  freshnessText,
  oneLine,
  plural,
  shortFooter,
  showsAccountTerms,
  statusLabel,
} from './format.js';
import type { SlackMessage } from './message.js';
import { clampPage, PEOPLE_PAGE_SIZE, pageCount, personLine, personLines } from './people.js';
import { redactContact, redactPerson } from './redact.js';

export { contactReveal } from './contactReveal.js';

interface ContactCardModel extends DisplayOptions {
  contact: Contact;
  freshness: Freshness;
  now: Date;
  /** Zero-based page of the addressbook in the all-people view (8 people a page). */
  peoplePage?: number;
  /** Every person, a page at a time, instead of the first five. */
  allPeople?: boolean;
  /**
   * Offer "Reveal details". On a shared card too: each reader who clicks gets the details
   * ephemerally, if the reveal policy allows them (a guest in the channel is refused).
   */
  canReveal: boolean;
  /** Posted to a channel: redacted as always, no Share or Refresh; a "View" button. */
  shared?: boolean;
  /**
   * `/contact ACME01 accounts`: only the people matching every word are listed ("2 of 6
   * people match “accounts”"), and every button, Reveal included, carries the filter.
   */
  peopleWords?: readonly string[];
  /**
   * The people those words keep, worked out by whoever asks for the card
   * (src/rules/people.ts); absent: the whole addressbook.
   */
  people?: readonly AddressbookEntry[];
  /** Set when the card answers a search that found nothing, retried as account + people. */
  retriedFrom?: readonly string[];
}

/** People on the card; the rest are one "All people (N)" away. */
const CARD_PEOPLE = 5;

/**
 * The contact card, made for a phone (one screen): company, code, type and status on top; a
 * stop credit as a plain warning; the salesperson; the account terms in one line (internal);
 * five people one line each, then "All people (N)".
 */
export function contactCard(model: ContactCardModel): SlackMessage {
  const contact = redactContact(model.contact);
  // Credit limit, discount, terms and stop credit are internal, like cost.
  const terms = showsAccountTerms(model.shared ?? false, model);
  const words = model.peopleWords ?? [];
  const people = model.people ? model.people.map(redactPerson) : contact.addressbook;
  const all = model.allPeople ?? false;
  const page = all ? clampPage(model.peoplePage, people.length) : 0;
  const shared = model.shared ?? false;
  const blocks: Array<KnownBlock | undefined> = [
    section(`*${oneLine(contact.company, 120) || codeSpan(contact.code)}*\n${subtitle(contact)}`),
    model.retriedFrom ? context(retriedNote(model.retriedFrom, contact, words)) : undefined,
    terms && contact.stopcred !== 0
      ? section(':warning: *On stop credit: check before shipping*')
      : undefined,
    section(salesLine(contact)),
    terms ? section(accountTerms(contact)) : undefined,
    context(whereLine(contact)),
    ...(all
      ? peopleBlocks(contact, people, words, page, shared)
      : [firstPeople(contact, people, words)]),
    actions(cardButtons(contact, page, model, people.length)),
    shortFooter(model.freshness, model, shared),
  ];
  return {
    text: fallbackText(contact, model),
    blocks: blocks.filter((b): b is KnownBlock => b !== undefined),
  };
}

/** "`ACME01` · Customer · Active" (Suspended stands out). */
function subtitle(contact: Contact): string {
  const status = statusLabel(contact.status_label, 'Suspended') || '—';
  return [codeSpan(contact.code, 30), oneLine(contact.account_type, 30), status]
    .filter(Boolean)
    .join(' · ');
}

/** Who sells to them, and at which prices. */
function salesLine(contact: Contact): string {
  const salesperson = contact.salesperson ? oneLine(contact.salesperson, 40) : '_Unassigned_';
  const group = oneLine(contact.custgroup_label, 40);
  return [`Salesperson *${salesperson}*`, group ? `Pricing group ${group}` : '']
    .filter(Boolean)
    .join(' · ');
}

/**
 * The account terms in one line, as the ERP gives them: the spec names no currency or unit,
 * so none is invented. A stop credit is the warning above, not a figure here.
 */
function accountTerms(contact: Contact): string {
  const terms = oneLine(contact.terms, 60);
  return [
    `Credit limit ${formatExact(contact.climit)}`,
    terms ? `Terms ${terms}` : '',
    `Discount ${formatExact(contact.discount)}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** State, address, ABN and the company's own (redacted) phone and e-mail, muted. */
function whereLine(contact: Contact): string {
  const parts = [
    oneLine(contact.state, 30),
    // `address4`'s meaning is not documented: shown as given.
    oneLine(contact.address4, 60),
    contact.abn ? `ABN ${oneLine(contact.abn, 30)}` : '',
    contact.telephone ? `:telephone_receiver: ${oneLine(contact.telephone, 30)}` : '',
    contact.email ? `:email: ${oneLine(contact.email, 60)}` : '',
  ];
  return parts.filter(Boolean).join(' · ') || '—';
}

/** The first five people one line each (name, role), or what the filter kept. */
function firstPeople(
  contact: Contact,
  people: readonly Contact['addressbook'][number][],
  words: readonly string[],
): KnownBlock {
  const all = contact.addressbook.length;
  if (all === 0) return section('No one is recorded against this account.');
  const filter = words.length > 0 ? `“${escapeTruncated(words.join(' '), 40)}”` : '';
  if (people.length === 0) {
    return section(`None of ${plural(all, 'person', 'people')} match ${filter}.`);
  }
  const lines = people.slice(0, CARD_PEOPLE).map(personLine);
  const title =
    words.length > 0
      ? [`${people.length} of ${plural(all, 'person', 'people')} match ${filter}`]
      : [];
  return section([...title, ...lines].join('\n'));
}

/** "No contact matched “acme accounts”: showing ACME01’s people matching “accounts”." */
function retriedNote(typed: readonly string[], contact: Contact, words: readonly string[]): string {
  const quoted = (list: readonly string[]) => `“${escapeTruncated(list.join(' '), 80)}”`;
  return `:information_source: No contact matched ${quoted(typed)}, so this is ${codeSpan(contact.code)} with its people matching ${quoted(words)}.`;
}

function peopleBlocks(
  contact: Contact,
  people: readonly Contact['addressbook'][number][],
  words: readonly string[],
  page: number,
  shared: boolean,
): KnownBlock[] {
  const all = contact.addressbook.length;
  if (all === 0) return [section('*People*\nNo one is recorded against this account.')];
  const filter = words.length > 0 ? `“${escapeTruncated(words.join(' '), 80)}”` : '';
  if (people.length === 0) {
    return [section(`*People* · none of ${plural(all, 'person', 'people')} match ${filter}`)];
  }
  const pages = pageCount(people.length);
  const start = page * PEOPLE_PAGE_SIZE;
  const onPage = people.slice(start, start + PEOPLE_PAGE_SIZE);
  const count =
    words.length > 0
      ? `${people.length} of ${plural(all, 'person', 'people')} match ${filter}`
      : `${people.length}`;
  const title =
    pages > 1
      ? `*People* · ${count} · ${start + 1}–${start + onPage.length} (page ${page + 1} of ${pages})`
      : `*People* · ${count}`;
  const { sections } = packLines([title, ...onPage.map(personLines)], {
    maxChars: 6000,
    maxSections: 3,
    more: (rest) =>
      `_+${plural(rest.length, 'more person', 'more people')} on this page not shown_`,
  });
  const paging =
    pages > 1 && !shared
      ? actions([
          page > 0
            ? stateButton(
                '‹ Previous people',
                actionId(ACTION.contactPeoplePage, page - 1),
                contactState(contact, page - 1, words, true),
              )
            : undefined,
          page < pages - 1
            ? stateButton(
                'Next people ›',
                actionId(ACTION.contactPeoplePage, page + 1),
                contactState(contact, page + 1, words, true),
              )
            : undefined,
        ])
      : undefined;
  return paging ? [...sections, paging] : sections;
}

function cardButtons(
  contact: Contact,
  page: number,
  model: ContactCardModel,
  matching: number,
): Button[] {
  const words = model.peopleWords ?? [];
  const all = model.allPeople ?? false;
  const state = contactState(contact, page, words, all);
  const main = contactState(contact, 0, words);
  const toggle = all
    ? stateButton('‹ Back', actionId(ACTION.contactPeoplePage, 900), main, {
        accessibilityLabel: `Back to the card of ${contact.company || contact.code}`,
      })
    : matching > CARD_PEOPLE
      ? stateButton(
          `All people (${matching})`,
          actionId(ACTION.contactPeoplePage, 901),
          contactState(contact, 0, words, true),
        )
      : undefined;
  const reveal = model.canReveal
    ? stateButton(
        words.length > 0 ? 'Reveal these details' : 'Reveal details',
        ACTION.contactReveal,
        state,
        {
          accessibilityLabel:
            words.length > 0
              ? 'Reveal the matching people’s phone numbers and e-mail addresses to you only'
              : 'Reveal phone numbers and e-mail addresses to you only',
        },
      )
    : undefined;
  const buttons = model.shared
    ? [
        stateButton('View', ACTION.contactView, state, {
          accessibilityLabel: `View ${contact.company} privately`,
        }),
        reveal,
      ]
    : [
        toggle,
        reveal,
        stateButton('Share to channel', ACTION.contactShare, state, { style: 'primary' }),
        stateButton('Refresh', ACTION.contactRefresh, state),
      ];
  return buttons.filter((b): b is Button => b !== undefined);
}

/** Notification text: who, never how to reach them. */
function fallbackText(contact: Contact, model: ContactCardModel): string {
  const line = [
    `${contact.company} (${contact.code})`,
    contact.account_type,
    contact.status_label,
    showsAccountTerms(model.shared ?? false, model) && contact.stopcred !== 0
      ? 'on stop credit: check before shipping'
      : '',
    plural(contact.addressbook.length, 'person', 'people'),
    freshnessText(model.freshness, model.now),
  ]
    .filter(Boolean)
    .join(' · ');
  return escapeTruncated(line.replace(/\s+/g, ' '), LIMITS.fallbackText / 4);
}
