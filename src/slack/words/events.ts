/**
 * The fields of a person's message and of a mention that the words listeners read, checked
 * with zod. Only a person's plain message passes: an edit (`message_changed`), a deletion, a
 * bot's message (the app's own included), a file share, a join or any other subtype fails
 * these shapes and gets no answer. So does anything malformed.
 */
import { z } from 'zod';
import { THREAD_TS } from '../../views/actions.js';

const slackId = z.string().regex(/^[A-Z0-9]{2,40}$/);
/** Slack allows 40,000 characters; the reader reads the first few hundred. */
const text = z.string().min(1).max(40_000);

/** Absent from a person's plain message; any value means something else. */
const absent = z.undefined().optional();
const personOnly = { subtype: absent, bot_id: absent, bot_profile: absent, edited: absent };

/** What a person's message and a person's mention both carry. */
const personSaid = {
  channel: slackId,
  user: slackId,
  text,
  ts: THREAD_TS,
  thread_ts: THREAD_TS.optional(),
  team: slackId.optional(),
  user_team: slackId.optional(),
  ...personOnly,
};

/** A person's plain message in a conversation with the app (`message.im`). */
export const PersonMessage = z
  .object({
    type: z.literal('message'),
    channel_type: z.string().max(20).optional(),
    ...personSaid,
  })
  .loose();
export type PersonMessage = z.infer<typeof PersonMessage>;

/** A person's mention of the app in a channel or a thread (`app_mention`). */
export const PersonMention = z.object({ type: z.literal('app_mention'), ...personSaid }).loose();
export type PersonMention = z.infer<typeof PersonMention>;
