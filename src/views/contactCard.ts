/**
 * The contact card. Always redacted: it calls `redactContact` itself, so whatever the caller
 * passes, no phone number or e-mail address leaves here in full. The full details go only to
 * `contactReveal`, for the ephemeral answer to "Reveal details".
 */
import type { Button, KnownBlock } from '@slack/types';
import type { AddressbookEntry, Contact } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import { ACTION, actionId } from './actions.js';
import {
  actions,
  context,
  divider,
  fieldsSection,
  header,
  packLines,
  section,
  stateButton,
} from './blocks.js';
import { type DisplayOptions, footer, showsAccountTerms } from './display.js';
import { formatExact, freshnessText, plural } from './format.js';
import { LIMITS } from './limits.js';
import type { SlackMessage } from './message.js';
import { codeSpan, escapeTruncated, oneLine, statusLabel } from './mrkdwn.js';
import { clampPage, PEOPLE_PAGE_SIZE, pageCount, personLines } from './people.js';
import { redactContact, redactPerson } from './redact.js';
import { contactState } from './states.js';

export { contactReveal } from './contactReveal.js';

export interface ContactCardModel extends DisplayOptions {
  contact: Contact;
  freshness: Freshness;
  now: Date;
  /** Zero-based page of the addressbook (8 people a page). */
  peoplePage?: number;
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

export function contactCard(model: ContactCardModel): SlackMessage {
  const contact = redactContact(model.contact);
  // Credit limit, discount, terms and stop credit are internal, like cost.
  const terms = showsAccountTerms(model.shared ?? false, model);
  const words = model.peopleWords ?? [];
  const people = model.people ? model.people.map(redactPerson) : contact.addressbook;
  const page = clampPage(model.peoplePage, people.length);
  const blocks: Array<KnownBlock | undefined> = [
    header(contact.company || contact.code),
    model.retriedFrom ? context(retriedNote(model.retriedFrom, contact, words)) : undefined,
    section(subtitle(contact, terms)),
    fieldsSection([
      ['Pricing group', oneLine(contact.custgroup_label, 100) || '—'],
      ['Salesperson', contact.salesperson ? oneLine(contact.salesperson, 100) : '_Unassigned_'],
      ['State', oneLine(contact.state, 100) || '—'],
      // `address4`'s meaning is not documented: shown as given, under a neutral label.
      ['Address', oneLine(contact.address4, 200) || '—'],
      ['Phone', oneLine(contact.telephone, 100) || '—'],
      ['E-mail', oneLine(contact.email, 200) || '—'],
    ]),
    fieldsSection([
      ...(terms ? accountTerms(contact) : []),
      ['ABN', oneLine(contact.abn, 100) || '—'],
    ]),
    divider(),
    ...peopleBlocks(contact, people, words, page, model.shared ?? false),
    footer(model.freshness, model),
    actions(cardButtons(contact, page, model)),
  ];
  return {
    text: fallbackText(contact, model),
    blocks: blocks.filter((b): b is KnownBlock => b !== undefined),
  };
}

/**
 * Terms as the ERP gives them: the spec names no currency or unit, so none is invented and
 * the figure says so; a zero stop-credit flag says nothing worth a line.
 */
function accountTerms(contact: Contact): Array<[string, string]> {
  const terms: Array<[string, string]> = [
    ['Terms', oneLine(contact.terms, 200) || '—'],
    ['Credit limit', `${formatExact(contact.climit)} _(currency not given)_`],
    ['Discount', `${formatExact(contact.discount)} _(unit not given)_`],
  ];
  if (contact.stopcred !== 0) {
    terms.push(['Stop credit', `:no_entry: *${formatExact(contact.stopcred)}*`]);
  }
  return terms;
}

/** "No contact matched “acme accounts”: showing ACME01’s people matching “accounts”." */
function retriedNote(typed: readonly string[], contact: Contact, words: readonly string[]): string {
  const quoted = (list: readonly string[]) => `“${escapeTruncated(list.join(' '), 80)}”`;
  return `:information_source: No contact matched ${quoted(typed)}, so this is ${codeSpan(contact.code)} with its people matching ${quoted(words)}.`;
}

function subtitle(contact: Contact, terms: boolean): string {
  const status = statusLabel(contact.status_label, 'Suspended') || '—';
  const stop = terms && contact.stopcred !== 0 ? ':no_entry: *Stop credit*' : '';
  return [codeSpan(contact.code), oneLine(contact.account_type, 60), status, stop]
    .filter(Boolean)
    .join(' · ');
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
                contactState(contact, page - 1, words),
              )
            : undefined,
          page < pages - 1
            ? stateButton(
                'Next people ›',
                actionId(ACTION.contactPeoplePage, page + 1),
                contactState(contact, page + 1, words),
              )
            : undefined,
        ])
      : undefined;
  return paging ? [...sections, paging] : sections;
}

function cardButtons(contact: Contact, page: number, model: ContactCardModel): Button[] {
  const words = model.peopleWords ?? [];
  const state = contactState(contact, page, words);
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
    plural(contact.addressbook.length, 'person', 'people'),
    showsAccountTerms(model.shared ?? false, model) && contact.stopcred !== 0 ? 'stop credit' : '',
    freshnessText(model.freshness),
  ]
    .filter(Boolean)
    .join(' · ');
  return escapeTruncated(line.replace(/\s+/g, ' '), LIMITS.fallbackText / 4);
}
