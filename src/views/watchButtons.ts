/**
 * The watch buttons and the state they carry in their value (zod-checked when clicked):
 * Remove, Snooze (a day, a week), Stop watching, Remove all (an unwatch of several), and
 * Watch… on item cards. Buttons that delete or stop ask first with Slack's `confirm` dialog;
 * buttons repeated within a message carry an accessibility label naming their watch.
 */
import type { Button, ConfirmationDialog } from '@slack/types';
import { z } from 'zod';
import { MEMBER_ID_SOURCE } from '../ids/member.js';
import { LIMITS, plain, stripBidiControls, truncatePlain } from './blocks.js';
import { watchName } from './watchWords.js';

export const WATCH_ACTION = {
  remove: 'watch_remove',
  snooze: 'watch_snooze',
  /** Stop watching, on the alert itself. */
  stop: 'watch_stop',
  /** Remove all, when `/stock unwatch` would remove several. */
  removeAll: 'watch_remove_all',
  /** The "Watch…" button on item cards: opens the modal. */
  open: 'watch_open',
  /** Replace, when a second watch would replace the person's own on that item and place. */
  replace: 'watch_replace',
  /** Cancel beside Replace: nothing changes. */
  keep: 'watch_keep',
} as const;

const watchId = z.string().uuid();
/** The most watches one Remove all names (a channel holds far fewer per item). */
const REMOVE_ALL_MAX = 40;

/** Remove, Snooze, Stop watching and Remove all: which watches, and for Snooze how many days. */
const WatchButtonState = z.discriminatedUnion('t', [
  z.object({ v: z.literal(1), t: z.literal('wr'), w: watchId }).strict(),
  z
    .object({
      v: z.literal(1),
      t: z.literal('ws'),
      w: watchId,
      d: z.union([z.literal(1), z.literal(7)]),
    })
    .strict(),
  z.object({ v: z.literal(1), t: z.literal('wx'), w: watchId }).strict(),
  z
    .object({
      v: z.literal(1),
      t: z.literal('wa'),
      ws: z.array(watchId).min(1).max(REMOVE_ALL_MAX),
    })
    .strict(),
]);
type WatchButtonState = z.infer<typeof WatchButtonState>;

/** The Watch… button and the modal's private_metadata: the item, and where it was opened. */
export const WatchOpenState = z
  .object({
    v: z.literal(1),
    t: z.literal('wo'),
    c: z.string().min(1).max(100),
    ch: z
      .string()
      .regex(/^[CGD][A-Z0-9]{2,30}$/)
      .optional(),
  })
  .strict();
export type WatchOpenState = z.infer<typeof WatchOpenState>;

const MENTION_TOKEN = new RegExp(`^<(?:@${MEMBER_ID_SOURCE}|!subteam\\^S[A-Z0-9]{2,30})>$`);

/**
 * Replace: the watch to make, as the person asked for it, in the conversation it is for (the
 * question may be answered from the app's direct messages, after the Watch… modal). Cancel
 * carries only the code its words name.
 */
const WatchReplaceState = z.discriminatedUnion('t', [
  z
    .object({
      v: z.literal(1),
      t: z.literal('wp'),
      ch: z.string().regex(/^[CGD][A-Z0-9]{2,30}$/),
      c: z.string().min(1).max(100),
      b: z.string().min(1).max(100).optional(),
      d: z.enum(['below', 'above']),
      n: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      no: z.array(z.string().regex(MENTION_TOKEN)).max(10).optional(),
    })
    .strict(),
  z.object({ v: z.literal(1), t: z.literal('wk'), c: z.string().min(1).max(100) }).strict(),
]);
export type WatchReplaceState = z.infer<typeof WatchReplaceState>;

export function decodeWatchReplace(value: unknown): WatchReplaceState | undefined {
  return decodeJson(value, WatchReplaceState);
}

/** Never throws: undefined for a forged, stale or malformed value. */
export function decodeWatchButton(value: unknown): WatchButtonState | undefined {
  return decodeJson(value, WatchButtonState);
}

export function decodeWatchOpen(value: unknown): WatchOpenState | undefined {
  return decodeJson(value, WatchOpenState);
}

/** A JSON button value checked by its schema; undefined when forged, stale or too long. */
export function decodeJson<T>(value: unknown, schema: z.ZodType<T>): T | undefined {
  if (typeof value !== 'string' || value.length > 2000) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

interface ButtonExtras {
  style?: 'danger' | 'primary';
  label?: string;
  confirm?: ConfirmationDialog;
}

function watchButton(
  text: string,
  actionId: string,
  state: WatchButtonState | WatchOpenState | WatchReplaceState,
  extras: ButtonExtras = {},
): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: plain(text, LIMITS.buttonText),
    value: JSON.stringify(state),
    ...(extras.style ? { style: extras.style } : {}),
    ...(extras.label
      ? { accessibility_label: truncatePlain(stripBidiControls(extras.label), LIMITS.buttonText) }
      : {}),
    ...(extras.confirm ? { confirm: extras.confirm } : {}),
  };
}

/** Slack's own "are you sure?" dialog, for buttons that delete or stop. */
function confirmDialog(title: string, text: string, yes: string): ConfirmationDialog {
  return {
    title: plain(title, 100),
    text: plain(text, 300),
    confirm: plain(yes, 30),
    deny: plain('Cancel', 30),
    style: 'danger',
  };
}

type Named = { id: string; code: string; branchName: string | undefined };

export function snoozeButtons(w: Named): Button[] {
  const name = watchName(w);
  return ([1, 7] as const).map((d) =>
    watchButton(
      d === 1 ? 'Snooze a day' : 'Snooze a week',
      `${WATCH_ACTION.snooze}:${w.id}:${d}`,
      { v: 1, t: 'ws', w: w.id, d },
      { label: `Snooze the watch on ${name} for a ${d === 1 ? 'day' : 'week'}` },
    ),
  );
}

export function removeButton(w: Named): Button {
  const name = watchName(w);
  return watchButton(
    'Remove',
    `${WATCH_ACTION.remove}:${w.id}`,
    { v: 1, t: 'wr', w: w.id },
    {
      style: 'danger',
      label: `Remove the watch on ${name}`,
      confirm: confirmDialog(
        'Remove this watch?',
        `The watch on ${name} is deleted; the channel hears nothing more about it.`,
        'Remove',
      ),
    },
  );
}

export function stopButton(w: Named): Button {
  const name = watchName(w);
  return watchButton(
    'Stop watching',
    `${WATCH_ACTION.stop}:${w.id}`,
    { v: 1, t: 'wx', w: w.id },
    {
      style: 'danger',
      label: `Stop the watch on ${name}`,
      confirm: confirmDialog(
        'Stop watching?',
        `The watch on ${name} is removed for everyone in this channel.`,
        'Stop watching',
      ),
    },
  );
}

export function removeAllButton(watches: readonly Named[]): Button | undefined {
  const ids = watches.slice(0, REMOVE_ALL_MAX).map((w) => w.id);
  const first = watches[0];
  if (first === undefined) return undefined;
  return watchButton(
    `Remove all ${watches.length}`,
    WATCH_ACTION.removeAll,
    { v: 1, t: 'wa', ws: ids },
    {
      style: 'danger',
      label: `Remove all ${watches.length} watches on ${first.code}`,
      confirm: confirmDialog(
        `Remove ${watches.length} watches?`,
        `Every watch on ${first.code} in this channel is deleted: ${watches.length} of them.`,
        'Remove all',
      ),
    },
  );
}

/** The "Watch…" button for item cards. */
export function watchOpenButton(code: string, channelId: string | undefined): Button | undefined {
  const state = WatchOpenState.safeParse({
    v: 1,
    t: 'wo',
    c: code,
    ...(channelId ? { ch: channelId } : {}),
  });
  if (!state.success) return undefined;
  return watchButton('Watch…', WATCH_ACTION.open, state.data);
}

/**
 * Replace (primary) and Cancel, under the question: no watch changes until Replace is pressed.
 * `replace` undefined (a value Slack would refuse): only Cancel is offered.
 */
export function replaceButtons(
  replace: Extract<WatchReplaceState, { t: 'wp' }>,
  label: string,
): Button[] {
  const keep = watchButton('Cancel', WATCH_ACTION.keep, { v: 1, t: 'wk', c: replace.c });
  const parsed = WatchReplaceState.safeParse(replace);
  const value = JSON.stringify(replace);
  if (!parsed.success || value.length > LIMITS.buttonValue) return [keep];
  return [
    watchButton('Replace', WATCH_ACTION.replace, parsed.data, { style: 'primary', label }),
    keep,
  ];
}
