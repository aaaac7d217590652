/**
 * The answer to "Reveal details": the contact's phone numbers and e-mail addresses in full.
 * Only for the ephemeral reply to the person who clicked; the fallback text carries none of
 * them (notifications and screen-reader summaries can be seen over a shoulder).
 */
import type { KnownBlock } from '@slack/types';
import type { Contact } from '../erp/schemas.js';
import { context, header, packLines, section } from './blocks.js';
import { plural, slackTime } from './format.js';
import { LIMITS } from './limits.js';
import type { SlackMessage } from './message.js';
import { codeSpan, escapeTruncated, oneLine } from './mrkdwn.js';
import { personLines } from './people.js';

/**
 * Marks the one message that may carry personal data in full, so that tests (and anyone
 * auditing what the app posts) can tell it apart: it must only ever be ephemeral and new.
 */
export const REVEAL_BLOCK_ID = 'contact_reveal';

export function contactReveal(model: { contact: Contact; now: Date }): SlackMessage {
  const { contact } = model;
  const company = [
    contact.telephone ? `:telephone_receiver: ${oneLine(contact.telephone, 60)}` : '',
    contact.email ? `:email: ${oneLine(contact.email, 120)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const people = contact.addressbook;
  const { sections } = packLines([`*People* · ${people.length}`, ...people.map(personLines)], {
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
