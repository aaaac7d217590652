/**
 * The contact card. Always redacted: it calls `redactContact` itself, so whatever the caller
 * passes, no phone number or e-mail address leaves here in full. The full details go only to
 * `contactReveal`, for the ephemeral answer to "Reveal details".
 */
import type { Button, KnownBlock } from '@slack/types';
import type { Contact } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import { ACTION, actionId } from './actions.js';
import {
  actions,
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
import { redactContact } from './redact.js';
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
}

export function contactCard(model: ContactCardModel): SlackMessage {
  const contact = redactContact(model.contact);
  // Credit limit, discount, terms and stop credit are internal, like cost.
  const terms = showsAccountTerms(model.shared ?? false, model);
  const page = clampPage(model.peoplePage, contact.addressbook.length);
  const blocks: Array<KnownBlock | undefined> = [
    header(contact.company || contact.code),
    section(subtitle(contact, terms)),
    fieldsSection([
      ['Pricing group', oneLine(contact.custgroup_label, 100) || '—'],
      ['Salesperson', contact.salesperson ? oneLine(contact.salesperson, 100) : '_Unassigned_'],
      ['State', oneLine(contact.state, 100) || '—'],
      ['Address line 4', oneLine(contact.address4, 200) || '—'],
      ['Phone', oneLine(contact.telephone, 100) || '—'],
      ['E-mail', oneLine(contact.email, 200) || '—'],
    ]),
    fieldsSection([
      ...(terms ? accountTerms(contact) : []),
      ['ABN', oneLine(contact.abn, 100) || '—'],
    ]),
    divider(),
    ...peopleBlocks(contact, page, model.shared ?? false),
    footer(model.freshness, model),
    actions(cardButtons(contact, page, model)),
  ];
  return {
    text: fallbackText(contact, model),
    blocks: blocks.filter((b): b is KnownBlock => b !== undefined),
  };
}

function accountTerms(contact: Contact): Array<[string, string]> {
  return [
    ['Terms', oneLine(contact.terms, 200) || '—'],
    // As the ERP gives them: the spec names no currency or unit, so none is invented.
    ['Credit limit', formatExact(contact.climit)],
    ['Discount', formatExact(contact.discount)],
    ['Stop credit', stopCredit(contact.stopcred)],
  ];
}

/** The value as given; a non-zero flag stands out like Suspended. */
function stopCredit(flag: number): string {
  return flag === 0 ? '0' : `:no_entry: *${formatExact(flag)}*`;
}

function subtitle(contact: Contact, terms: boolean): string {
  const status = statusLabel(contact.status_label, 'Suspended') || '—';
  const stop = terms && contact.stopcred !== 0 ? ':no_entry: *Stop credit*' : '';
  return [codeSpan(contact.code), oneLine(contact.account_type, 60), status, stop]
    .filter(Boolean)
    .join(' · ');
}

function peopleBlocks(contact: Contact, page: number, shared: boolean): KnownBlock[] {
  const people = contact.addressbook;
  if (people.length === 0) return [section('*People*\nNo one is recorded against this account.')];
  const pages = pageCount(people.length);
  const start = page * PEOPLE_PAGE_SIZE;
  const onPage = people.slice(start, start + PEOPLE_PAGE_SIZE);
  const title =
    pages > 1
      ? `*People* · ${people.length} · ${start + 1}–${start + onPage.length} (page ${page + 1} of ${pages})`
      : `*People* · ${people.length}`;
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
                contactState(contact, page - 1),
              )
            : undefined,
          page < pages - 1
            ? stateButton(
                'Next people ›',
                actionId(ACTION.contactPeoplePage, page + 1),
                contactState(contact, page + 1),
              )
            : undefined,
        ])
      : undefined;
  return paging ? [...sections, paging] : sections;
}

function cardButtons(contact: Contact, page: number, model: ContactCardModel): Button[] {
  const state = contactState(contact, page);
  const reveal = model.canReveal
    ? stateButton('Reveal details', ACTION.contactReveal, state, {
        accessibilityLabel: 'Reveal phone numbers and e-mail addresses to you only',
      })
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
