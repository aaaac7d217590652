/**
 * The "working on it" line from data: what is being looked up (a subject, never a sentence
 * built by a listener) and why it takes a while (the caller's place in the budget queue).
 */
import type { ErpRef } from '../erp/schemas.js';
import { context } from './blocks.js';
import { aboutSeconds, escapeTruncated } from './format.js';
import type { SlackMessage } from './message.js';

export type WorkSubject =
  | { kind: 'record'; noun: 'item' | 'contact'; ref: ErpRef }
  | { kind: 'search'; noun: 'item' | 'contact' }
  | { kind: 'codes'; count: number };

export type Progress =
  /** `ownAhead`: the user's own lookups queued before this one (a burst of their own). */
  { kind: 'queued'; waitMs: number; ownAhead?: number } | { kind: 'slow' } | { kind: 'retrying' };

function subjectWords(subject: WorkSubject): string {
  switch (subject.kind) {
    case 'record':
      return `Looking up ${'id' in subject.ref ? `${subject.noun} #${subject.ref.id}` : subject.ref.code}`;
    case 'search':
      return subject.noun === 'item' ? 'Searching items' : 'Searching contacts';
    case 'codes':
      return subject.count === 1 ? 'Looking up 1 code' : `Looking up ${subject.count} codes`;
  }
}

function why(progress: Progress): string {
  if (progress.kind === 'slow') return 'the ERP is slow to answer, a few more seconds';
  if (progress.kind === 'retrying') return 'the ERP did not answer, trying again';
  const own = progress.ownAhead ?? 0;
  const ahead =
    own === 0 ? 'other lookups' : own === 1 ? 'your other lookup' : `your other ${own} lookups`;
  // The queued lookup is delivered by itself: say so, and when.
  return `queued behind ${ahead}; I’ll post it here in ${aboutSeconds(progress.waitMs)}`;
}

/** ONE short line: "Looking up WIDGET-9: queued behind other lookups; I’ll post it here in about 50 s". */
export function progressMessage(subject: WorkSubject, progress: Progress): SlackMessage {
  return progressLine(subjectWords(subject), progress);
}

/** `doing` is our own words (or escaped here when it holds user text). */
export function progressLine(doing: string, progress: Progress): SlackMessage {
  const line = `${escapeTruncated(doing.replace(/\s+/g, ' '), 100)}: ${why(progress)}`;
  return { text: line, blocks: [context(`:hourglass_flowing_sand: ${line}`)] };
}
