import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs, SlashCommand } from '@slack/bolt';
import { checkAccess } from '../privacy/access.js';
import { noticeMessage } from '../views/feedback.js';
import { unreadableText } from '../views/unreadable.js';
import { type CommandAck, ephemeral } from './delivery.js';
import type { DeliveryDeps } from './deps.js';
import { type Actor, CommandPayload } from './payloads.js';

export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * The checks every command starts with: the payload has the fields we read, and the access
 * rules allow this user in this channel. Refusals are acknowledged here; `undefined` means
 * the command has been answered already.
 */
export async function acceptCommand(
  deps: Pick<DeliveryDeps, 'logger' | 'access'>,
  command: SlashCommand,
  ack: CommandAck,
  family: 'stock' | 'contact',
): Promise<{ actor: Actor; text: string } | undefined> {
  const payload = CommandPayload.safeParse(command);
  if (!payload.success) {
    deps.logger.warn(
      { issues: payload.error.issues.map((issue) => issue.path.join('.')) },
      'slash command payload did not match the expected shape',
    );
    await ack(ephemeral(noticeMessage(unreadableText('command_shape'))));
    return undefined;
  }
  const actor: Actor = {
    userId: payload.data.user_id,
    teamId: payload.data.team_id,
    channelId: payload.data.channel_id,
    userTeamId: payload.data.team_id,
  };
  const refused = accessRefusal(deps, family, actor, 'command');
  if (refused !== undefined) {
    await ack(ephemeral(noticeMessage(refused)));
    return undefined;
  }
  // The parsers sanitise the text (control characters, length): it is passed on as typed.
  return { actor, text: payload.data.text };
}

/**
 * What the access rules say to this person here about a family of commands, asked by a
 * command or by a sentence: undefined when allowed; a refusal is logged (ids only).
 */
export function accessRefusal(
  deps: Pick<DeliveryDeps, 'logger' | 'access'>,
  family: 'stock' | 'contact',
  actor: Actor,
  asked: 'command' | 'sentence',
): string | undefined {
  const decision = checkAccess(
    deps.access[family],
    actor,
    family === 'stock' ? '/stock' : '/contact',
  );
  if (decision.allowed) return undefined;
  deps.logger.info(
    { user: actor.userId, channel: actor.channelId },
    `${asked} refused by access rules`,
  );
  return decision.message;
}
