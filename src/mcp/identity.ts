/**
 * Who a tool call is for: the `_meta.slack` Slack's MCP client puts on every call it signs
 * (`params._meta.slack.user_id`, `team_id`, and `enterprise_id` in an Enterprise org), never
 * a tool argument. The request's signature was checked before anything read it
 * (slack/transport/guard.ts), so these ids are Slack's word, as a slash command's are.
 */
import { z } from 'zod';
import { TeamId, UserId } from '../slack/ids.js';
import type { Actor } from '../slack/payloads.js';

const SlackIdentity = z.object({
  slack: z.object({
    user_id: UserId,
    team_id: TeamId,
    enterprise_id: z
      .string()
      .regex(/^E[A-Z0-9]{1,30}$/)
      .nullish(),
  }),
});

/**
 * The person of a call, as an actor without a channel (a tool call happens in no channel the
 * app can see, so any channel access list refuses it, as it refuses the workflow step);
 * undefined when the call names no Slack user and team of the right shape.
 */
export function actorOfCall(meta: unknown): Actor | undefined {
  const parsed = SlackIdentity.safeParse(meta);
  if (!parsed.success) return undefined;
  const { user_id, team_id } = parsed.data.slack;
  return { userId: user_id, teamId: team_id, userTeamId: team_id, channelId: undefined };
}
