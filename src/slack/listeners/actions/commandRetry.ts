/**
 * "Try again" on a `/stock` or `/contact` answer that failed in a way that may pass (ERP not
 * answering, busy): the same text asked again by whoever pressed it, under the command's
 * access rules, answered in place of the failure (the clicker's own ephemeral message). A
 * sentence's failed answer carries the command text it stands for: in a direct message or the
 * assistant panel it is answered in place too (that conversation is where the words path
 * answers whoever asks); on a message the channel sees (a mention's thread), privately, in
 * that thread, so nobody else's view changes.
 */
import { z } from 'zod';
import { THREAD_TS } from '../../../views/actions.js';
import { acceptClick, type ClickArgs } from '../../clicks.js';
import { deliverClickAnswer, ephemeral, sendSafely } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { contactCommandSpec } from '../commands/contact.js';
import { answerText } from '../commands/lookupCommand.js';
import { stockCommandSpec } from '../commands/stock.js';

const InThread = z
  .object({ message: z.object({ thread_ts: THREAD_TS.optional().catch(undefined) }).loose() })
  .loose();

export function commandRetryClick(deps: ListenerDeps) {
  const specs = { stock: stockCommandSpec(deps), contact: contactCommandSpec(deps) };
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'rc');
    if (!click) return;
    const { f: family, x: text } = click.state;
    const inDirectMessage = click.actor.channelId?.startsWith('D') === true;
    const mode = click.onSharedMessage && !inDirectMessage ? 'new' : 'replace';
    const run =
      family === 'stock'
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
