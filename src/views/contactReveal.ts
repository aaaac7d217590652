/**
 * The answer to "Reveal details": the contact's phone numbers and e-mail addresses in full.
 * Only for the ephemeral reply to the person who clicked; the fallback text carries none of
 * them (notifications and screen-reader summaries can be seen over a shoulder).
 */
import type { KnownBlock } from '@slack/types';
import type { AddressbookEntry, Contact } from '../erp/schemas.js';
import { context, header, LIMITS, packLines, section } from './blocks.js';
import { codeSpan, escapeTruncated, oneLine, plural, slackTime } from './format.js';
import type { SlackMessage } from './message.js';
import { personTitle } from './people.js';

/**
 * Marks the one message that may carry personal data in full, so that tests (and anyone
 * auditing what the app posts) can tell it apart: it must only ever be ephemeral and new.
 */
export const REVEAL_BLOCK_ID = 'contact_reveal';

interface ContactRevealModel {
  contact: Contact;
  now: Date;
  /** The card's people filter: only the people it keeps are revealed. */
  peopleWords?: readonly string[];
  /** The people it keeps (src/rules/people.ts); absent: the whole addressbook. */
  people?: readonly AddressbookEntry[];
}

/** An address a mail app can open: nothing that could end or bend Slack's `<…|…>` link. */
const MAILABLE = /^[^\s<>|@]{1,64}@[^\s<>|@]{1,190}\.[^\s<>|@.]{2,24}$/;

/** "jane@acme.com" as a `mailto:` link, or as text when it is not an address. */
export function emailLink(email: string): string {
  const trimmed = email.trim();
  if (!MAILABLE.test(trimmed)) return oneLine(trimmed, 120);
  const shown = oneLine(trimmed, 120);
  return `<mailto:${encodeURI(trimmed)}|${shown}>`;
}

/**
 * The number as the ERP gives it, as a `tel:` link where it reads as a phone number (7 to 15
 * digits, an optional leading +, the usual separators); otherwise the text alone.
 */
export function phoneLink(phone: string): string {
  const shown = oneLine(phone, 60);
  const trimmed = phone.trim();
  if (!/^\+?[0-9 ()./-]{7,30}$/.test(trimmed)) return shown;
  const digits = trimmed.replace(/[^0-9]/g, '');
  if (digits.length < 7 || digits.length > 15) return shown;
  const dial = `${trimmed.startsWith('+') ? '+' : ''}${digits}`;
  // The link's text is the number as the ERP gives it: tappable, and read as typed.
  return `<tel:${dial}|${shown}>`;
}

function revealedReach(person: AddressbookEntry): string {
  const parts = [
    person.telephone ? `:telephone_receiver: ${phoneLink(person.telephone)}` : '',
    person.mobile ? `:iphone: ${phoneLink(person.mobile)}` : '',
    person.email ? `:email: ${emailLink(person.email)}` : '',
    person.email2 ? `:email: ${emailLink(person.email2)}` : '',
  ];
  return parts.filter(Boolean).join(' · ') || '_no phone or e-mail on file_';
}

export function contactReveal(model: ContactRevealModel): SlackMessage {
  const { contact } = model;
  const words = model.peopleWords ?? [];
  const company = [
    contact.telephone ? `:telephone_receiver: ${phoneLink(contact.telephone)}` : '',
    contact.email ? `:email: ${emailLink(contact.email)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const people = model.people ?? contact.addressbook;
  const count =
    words.length > 0
      ? `${people.length} of ${plural(contact.addressbook.length, 'person', 'people')} matching “${escapeTruncated(words.join(' '), 80)}”`
      : `${people.length}`;
  const lines = people.map((person) => `${personTitle(person)}\n${revealedReach(person)}`);
  const { sections } = packLines([`*People* · ${count}`, ...lines], {
    maxChars: 9500,
    maxSections: 40,
    more: (rest) =>
      `_+${plural(rest.length, 'more person', 'more people')}: too many to show in one message_`,
  });
  const blocks: KnownBlock[] = [
    { ...header(`Contact details: ${contact.company || contact.code}`), block_id: REVEAL_BLOCK_ID },
    context(
      `:lock: Only you can see this. ${codeSpan(contact.code)} · revealed ${slackTime(model.now)}`,
    ),
    section(`*Company*\n${company || '_no phone or e-mail on file_'}`),
    ...(people.length > 0 ? sections : []),
  ];
  const text = `Contact details for ${contact.company} (${contact.code}), visible only to you`;
  return { text: escapeTruncated(text, LIMITS.fallbackText / 4), blocks };
}
