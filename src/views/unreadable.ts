/**
 * What we say when a request cannot be read at all: Slack sent a shape we do not know, or a
 * message shortcut found nothing to look up. Listeners pass the reason; the words are here.
 */
export type Unreadable = 'command_shape' | 'shortcut_shape' | 'no_codes';

const WORDS: Record<Unreadable, string> = {
  command_shape: 'Slack sent this command in a form I cannot read.',
  shortcut_shape: 'Slack sent this shortcut in a form I cannot read.',
  no_codes: 'I found no item codes in this message. Try /stock with a code or some words.',
};

export function unreadableText(reason: Unreadable): string {
  return WORDS[reason];
}
