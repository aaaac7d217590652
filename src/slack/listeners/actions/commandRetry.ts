/**
 * "Try again" on a `/stock` or `/contact` answer that failed in a way that may pass (ERP not
 * answering, busy): the same text asked again by whoever pressed it, under the command's
 * access rules, answered in place of the failure (the clicker's own ephemeral message). A
 * sentence's failed answer carries the command text it stands for: in the app's own direct
 * message with the presser or the assistant panel it is answered in place too (that
 * conversation is where the words path answers whoever asks); on a message others see (a
 * mention's thread, a direct message between people), privately, in that thread, so nobody
 * else's view changes; a contact asked by account words with people words carries those words,
 * answered again as that sentence is (words/answer.ts). A `D…` id alone does not say whose
 * direct message it is: Slack's conversations.info does (`is_im` for the app is only ever its
 * own, it is in no other), and when it cannot say, the answer is private.
 */
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { AppLogger } from '../../../log/logger.js';
import { THREAD_TS } from '../../../views/actions.js';
import { workingLine } from '../../answers.js';
import { acceptClick, type ClickArgs } from '../../clicks.js';
import { deliverClickAnswer, ephemeral, sendSafely } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { slackErrorCode } from '../../payloads.js';
import { contactWordsAgain } from '../../words/answer.js';
import { contactCommandSpec } from '../commands/contact.js';
import { answerText } from '../commands/lookupCommand.js';
import { stockCommandSpec } from '../commands/stock.js';

/** A contact question in words starts with the account's search. */
const CONTACT_SEARCH = { kind: 'search', noun: 'contact' } as const;

const InThread = z
  .object({ message: z.object({ thread_ts: THREAD_TS.optional().catch(undefined) }).loose() })
  .loose();

const ConversationInfo = z.object({ channel: z.object({ is_im: z.boolean().optional() }).loose() });

/** Whether `channelId` is the app's own direct message (with whoever pressed in it). */
async function isAppsDirectMessage(
  client: WebClient,
  logger: AppLogger,
  channelId: string | undefined,
): Promise<boolean> {
  if (!channelId?.startsWith('D')) return false;
  try {
    const info = ConversationInfo.safeParse(
      await client.conversations.info({ channel: channelId }),
    );
    return info.success && info.data.channel.is_im === true;
  } catch (error) {
    // Not a conversation of the app's (a direct message between people), or no answer.
    logger.info({ reason: slackErrorCode(error) ?? 'unknown' }, 'Try again: answered privately');
    return false;
  }
}

export function commandRetryClick(deps: ListenerDeps) {
  const specs = { stock: stockCommandSpec(deps), contact: contactCommandSpec(deps) };
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'rc');
    if (!click) return;
    const { f: family, x: text = '', w: words } = click.state;
    const mode =
      !click.onSharedMessage ||
      (await isAppsDirectMessage(args.client, deps.logger, click.actor.channelId))
        ? 'replace'
        : 'new';
    const run =
      words !== undefined
        ? {
            answer: contactWordsAgain(deps, words, click.actor, args.client),
            working: () => workingLine(deps, CONTACT_SEARCH, 'searchContact', click.actor),
          }
        : family === 'stock'
          ? answerText(deps, specs.stock, text, click.actor, args.client)
          : answerText(deps, specs.contact, text, click.actor, args.client);
    if ('now' in run) {
      await sendSafely(deps.logger, args.respond, {
        ...ephemeral(run.now),
        replace_original: mode === 'replace',
      });
      return;
    }
    await deliverClickAnswer({
      respond: args.respond,
      answer: run.answer,
      working: run.working,
      mode,
      threadTs: InThread.safeParse(args.body).data?.message.thread_ts,
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}
