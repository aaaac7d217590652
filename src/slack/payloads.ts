/**
 * zod schemas for the fields of Slack's payloads that the listeners read. Bolt's types say
 * what Slack promises; these check what actually arrived, so a malformed or forged body gets
 * a clear answer instead of an exception deep in a listener.
 */
import { z } from 'zod';
import { THREAD_TS } from '../views/actions.js';
import { ChannelId, MessageTs, PayloadUser, TeamId, UserId } from './ids.js';

export const CommandPayload = z.object({
  command: z.string().max(40),
  text: z.string().max(10_000).default(''),
  user_id: UserId,
  channel_id: ChannelId.optional(),
  team_id: TeamId.optional(),
  // No response_url: Bolt's respond() reads it, and responseUrls.ts decides where it may go.
});
export type CommandPayload = z.infer<typeof CommandPayload>;

export const BlockActionPayload = z.object({
  type: z.literal('block_actions'),
  user: PayloadUser,
  team: z.object({ id: TeamId }).nullish(),
  channel: z.object({ id: ChannelId }).nullish(),
  container: z
    .object({
      type: z.string(),
      is_ephemeral: z.boolean().optional(),
      message_ts: MessageTs.optional(),
      /** Set when the message is a reply in a thread (an ephemeral one too). */
      thread_ts: THREAD_TS.optional().catch(undefined),
    })
    .loose()
    .optional(),
  /** The message the button sat on: Slack sends it only when it is not ephemeral. */
  message: z
    .object({ ts: MessageTs.optional(), thread_ts: THREAD_TS.optional().catch(undefined) })
    .loose()
    .optional()
    .catch(undefined),
  response_url: z.url().optional(),
  actions: z
    .array(
      z.object({
        action_id: z.string().max(255),
        value: z.string().optional(),
      }),
    )
    .min(1),
});
export type BlockActionPayload = z.infer<typeof BlockActionPayload>;

export const MessageShortcutPayload = z.object({
  type: z.literal('message_action'),
  callback_id: z.string(),
  user: z.object({ id: UserId }),
  team: z.object({ id: TeamId }).nullish(),
  channel: z.object({ id: ChannelId }).nullish(),
  response_url: z.url().optional(),
  message: z
    .object({
      text: z.string().max(100_000).default(''),
      blocks: z.array(z.unknown()).optional(),
      /** Set when the message is in a thread (a reply, or a parent with replies). */
      thread_ts: THREAD_TS.optional().catch(undefined),
    })
    .loose(),
});
export type MessageShortcutPayload = z.infer<typeof MessageShortcutPayload>;

/** Who clicked or typed, and where: what access rules, audit lines and the budget need. */
export interface Actor {
  userId: string;
  teamId: string | undefined;
  channelId: string | undefined;
  /** The presser's own team (`user.team_id`, a command's `team_id`): another in Slack Connect. */
  userTeamId?: string | undefined;
}

/**
 * The person of a command, modal or App Home payload (`user.id`, `user.team_id`), in
 * `channelId` if the payload names one: outside Slack Connect their team is the workspace's.
 */
export function userActor(
  user: { id: string; team_id?: string | undefined },
  channelId?: string,
): Actor {
  return { userId: user.id, teamId: user.team_id, userTeamId: user.team_id, channelId };
}

/** Slack Web API errors carry their code in `data.error`. */
const SlackApiFailure = z.object({ data: z.object({ error: z.string() }) });

/** The Slack error code of a failed Web API call (`not_in_channel`, …), if any. */
export function slackErrorCode(error: unknown): string | undefined {
  const parsed = SlackApiFailure.safeParse(error);
  return parsed.success ? parsed.data.data.error : undefined;
}
