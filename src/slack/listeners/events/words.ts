/**
 * Asking in words, outside the assistant panel: a direct message to the app (`message.im`) is
 * answered in the conversation, privately as a command is; a mention (`app_mention`) in the
 * mention's thread, with what a channel may see (src/slack/words/answer.ts). Each message once:
 * Slack's retries, edits, deletions, bot messages and other subtypes get no answer.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { OnceGate } from '../../../ops/onceGate.js';
import type { DeliveryDeps, ListenerDeps } from '../../deps.js';
import type { Actor } from '../../payloads.js';
import { answerReading, type Place, subjectOf } from '../../words/answer.js';
import { deliverWords, wordsWorkingLine } from '../../words/deliver.js';
import { PersonMention, PersonMessage } from '../../words/events.js';
import { conversationKey, readInConversation } from '../../words/followUps.js';
import { messageKey } from '../../words/once.js';
import { whileWorking } from './agentSurface.js';

type EventArgs<T extends 'message' | 'app_mention'> = SlackEventMiddlewareArgs<T> &
  AllMiddlewareArgs;

const Envelope = z.object({ team_id: z.string().regex(/^[A-Z0-9]{2,40}$/) }).loose();

/** Who asked, where: the access rules, the budget's fairness and the audit read it. */
export function askerOf(
  message: { user: string; channel: string; team?: string; user_team?: string },
  body: unknown,
): Actor {
  const team = Envelope.safeParse(body).data?.team_id ?? message.team;
  return {
    userId: message.user,
    teamId: team,
    channelId: message.channel,
    // In a Slack Connect channel the asker's own team differs from the workspace's.
    userTeamId: message.user_team ?? message.team ?? team,
  };
}

/**
 * The checks every sentence starts with: not a retry (the first delivery was answered), a
 * person's plain message, and the first delivery of that message.
 */
export async function firstDelivery<T>(
  deps: Pick<DeliveryDeps, 'logger'>,
  once: OnceGate,
  retryNum: number | undefined,
  parsed: { success: true; data: T & { channel: string; ts: string } } | { success: false },
): Promise<(T & { channel: string; ts: string }) | undefined> {
  if (retryNum !== undefined && retryNum > 0) {
    deps.logger.debug({ retryNum }, 'a retried event: the first delivery was answered');
    return undefined;
  }
  if (!parsed.success) return undefined;
  const { channel, ts } = parsed.data;
  return (await once.claim(messageKey(channel, ts))) ? parsed.data : undefined;
}

/**
 * A direct message: answered in the conversation, as privately as a command. It takes every
 * slice of the deps because a sentence is answered as whichever command it reads as
 * (`answerReading`), with the catalogue's branch names; so do the mention and the assistant.
 */
export function directMessage(deps: ListenerDeps, once: OnceGate) {
  return async (args: EventArgs<'message'>): Promise<void> => {
    const { event, body, context, client } = args;
    const parsed = PersonMessage.safeParse(event);
    const message = await firstDelivery(deps, once, context.retryNum, parsed);
    if (message?.channel_type !== 'im') return;
    const actor = askerOf(message, body);
    const conversation = conversationKey(message.channel, message.thread_ts);
    const reading = await readInConversation(deps, message.text, conversation);
    // The agent surface's status on the message while it is answered (Bolt's setStatus).
    await whileWorking(deps, args.setStatus, subjectOf(reading), () =>
      deliverWords(
        deps,
        {
          chat: client.chat,
          channel: message.channel,
          threadTs: message.thread_ts,
          user: message.user,
        },
        answerReading(deps, reading, actor, client, 'private'),
        { working: () => wordsWorkingLine(deps, reading, actor), workingInPublic: true },
      ),
    );
  };
}

/** A mention: answered in its thread (a mention in a direct message is private). */
export function mention(deps: ListenerDeps, once: OnceGate) {
  return async ({ event, body, context, client }: EventArgs<'app_mention'>): Promise<void> => {
    const parsed = PersonMention.safeParse(event);
    const message = await firstDelivery(deps, once, context.retryNum, parsed);
    if (!message) return;
    const actor = askerOf(message, body);
    const place: Place = message.channel.startsWith('D') ? 'private' : 'channel';
    const thread = message.thread_ts ?? message.ts;
    const reading = await readInConversation(
      deps,
      message.text,
      conversationKey(message.channel, thread),
    );
    await deliverWords(
      deps,
      {
        chat: client.chat,
        channel: message.channel,
        threadTs: message.thread_ts ?? message.ts,
        user: message.user,
      },
      answerReading(deps, reading, actor, client, place),
      {
        working: () => wordsWorkingLine(deps, reading, actor),
        workingInPublic: place === 'private',
      },
    );
  };
}
