/**
 * What we say when a request cannot be read at all: Slack sent a shape we do not know, a
 * button's value is out of date or forged, or a message shortcut found nothing to look up.
 * Listeners pass the reason; the words are here.
 */
type Unreadable = 'command_shape' | 'shortcut_shape' | 'click_shape' | 'stale_button' | 'no_codes';

const WORDS: Record<Unreadable, string> = {
  command_shape: 'Slack sent this command in a form I cannot read.',
  shortcut_shape: 'Slack sent this shortcut in a form I cannot read.',
  click_shape: 'Slack sent this click in a form I cannot read.',
  stale_button:
    'This button is out of date or was changed, so I cannot act on it. Run the command again for a fresh card.',
  no_codes: 'I found no item codes in this message. Try /stock with a code or some words.',
};

export function unreadableText(reason: Unreadable): string {
  return WORDS[reason];
}
