/**
 * "Try again" on a `/stock` or `/contact` answer that failed in a way that may pass (ERP not
 * answering, busy): the same text asked again by whoever pressed it, under the command's
 * access rules, answered in place of the failure (the clicker's own ephemeral message).
 */

import { acceptClick, type ClickArgs } from '../../clicks.js';
import { deliverClickAnswer, ephemeral, sendSafely } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { contactCommandSpec } from '../commands/contact.js';
import { answerText } from '../commands/lookupCommand.js';
import { stockCommandSpec } from '../commands/stock.js';

export function commandRetryClick(deps: ListenerDeps) {
  const specs = { stock: stockCommandSpec(deps), contact: contactCommandSpec(deps) };
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'rc');
    if (!click) return;
    const { f: family, x: text } = click.state;
    const run =
      family === 'stock'
        ? answerText(deps, specs.stock, text, click.actor, args.client)
        : answerText(deps, specs.contact, text, click.actor, args.client);
    if ('now' in run) {
      await sendSafely(deps.logger, args.respond, {
        ...ephemeral(run.now),
        replace_original: true,
      });
      return;
    }
    await deliverClickAnswer({
      respond: args.respond,
      answer: run.answer,
      working: run.working,
      mode: click.onSharedMessage ? 'new' : 'replace',
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}
