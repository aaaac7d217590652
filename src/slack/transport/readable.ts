/**
 * Whether Bolt can route a parsed body without throwing: Bolt reads some fields before any
 * listener runs, without checking them. Both transports' guards (HTTP and Socket Mode) ask.
 */
import { z } from 'zod';

/** Whether Bolt can route this body without throwing (the Socket Mode guard uses it too). */
export function boltCanRead(body: unknown): boolean {
  // A body without any field the schema looks at (a slash command) passes it trivially.
  if (isRecord(body) && !Object.keys(body).some((key) => SCHEMA_FIELDS.has(key))) return true;
  return BoltReadable.safeParse(body).success;
}

const record = z.record(z.string(), z.unknown());

/**
 * The fields Bolt reads before any listener runs, without checking them (its `helpers.ts`
 * and `App.processEvent`): where present, they must have the shape Slack gives them, or Bolt
 * throws (and answers 500). Everything else is left to the listeners' own schemas.
 */
const BoltReadable = z
  .object({
    type: z.unknown().optional(),
    command: z.unknown().optional(),
    name: z.unknown().optional(),
    event: record.refine(readableEvent).optional(),
    authorizations: z.array(record).optional(),
    team: record.nullish(),
    enterprise: record.nullish(),
    user: record.optional(),
    channel: record.optional(),
    view: record.optional(),
    actions: z.array(record).optional(),
  })
  .loose()
  .refine((body) => {
    if (body.event !== undefined || body.command !== undefined) return true;
    // Bolt's own test for an interaction (helpers.ts, getTypeAndConversation).
    const interactive =
      body.name !== undefined || body.actions !== undefined || INTERACTIONS.has(String(body.type));
    if (!interactive) return true;
    // Bolt reads `user.id`, and `view.app_installed_team_id` for view submissions.
    if (body.user === undefined) return false;
    return !(body.type === 'view_submission' || body.type === 'view_closed') || isRecord(body.view);
  });

/** The fields BoltReadable checks, bar `command` (which alone makes any body readable). */
const SCHEMA_FIELDS = new Set([
  'type',
  'name',
  'event',
  'authorizations',
  'team',
  'enterprise',
  'user',
  'channel',
  'view',
  'actions',
]);

const INTERACTIONS = new Set([
  'block_suggestion',
  'dialog_submission',
  'shortcut',
  'message_action',
  'view_submission',
  'view_closed',
]);

/** What Bolt reads from an event (`channel`, `item.channel`, `user.id`, `subteam.created_by`). */
function readableEvent(event: Record<string, unknown>): boolean {
  const has = (key: string) => key in event;
  return (
    (!has('channel') || typeof event.channel === 'string' || isRecord(event.channel)) &&
    (!has('item') || isRecord(event.item)) &&
    (!has('user') || event.user !== null) &&
    (!has('subteam') || isRecord(event.subteam))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
