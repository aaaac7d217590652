/**
 * Message shortcut "Look up stock" (callback_id `stock_lookup_message`): finds up to 5
 * distinct item codes in the message and answers ephemerally with one line each.
 */
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { NotFoundError } from '../../../erp/errors.js';
import type { Item } from '../../../erp/schemas.js';
import type { Freshness } from '../../../lookup/types.js';
import { checkAccess } from '../../../privacy/access.js';
import { noticeMessage } from '../../../views/feedback.js';
import { shortcutResults } from '../../../views/shortcut.js';
import { unreadableText } from '../../../views/unreadable.js';
import { safely, workingLine } from '../../answers.js';
import { extractItemCodes } from '../../codes.js';
import { deliverClickAnswer, privateReply, sendSafely } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { MessageShortcutPayload } from '../../payloads.js';

export const LOOK_UP_STOCK_CALLBACK_ID = 'stock_lookup_message';
export const MAX_CODES = 5;

type ShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;

/** Message shortcut "Look up stock". */
export function lookUpStockShortcut(deps: ListenerDeps) {
  return async ({ shortcut, ack, respond }: ShortcutArgs): Promise<void> => {
    await ack();
    const say = (text: string) =>
      sendSafely(deps.logger, respond, privateReply(noticeMessage(text)));
    const payload = MessageShortcutPayload.safeParse(shortcut);
    if (!payload.success) {
      deps.logger.warn('message shortcut payload did not match the expected shape');
      await say(unreadableText('shortcut_shape'));
      return;
    }
    const actor = {
      userId: payload.data.user.id,
      teamId: payload.data.team?.id,
      channelId: payload.data.channel?.id,
    };
    const access = checkAccess(deps.access.stock, actor, '/stock');
    if (!access.allowed) {
      await say(access.message);
      return;
    }
    const codes = extractItemCodes(payload.data.message.text, MAX_CODES);
    if (codes.length === 0) {
      await say(unreadableText('no_codes'));
      return;
    }
    const answer = safely(deps.logger, 'look up stock', async () => {
      const found: Array<{ item: Item; freshness: Freshness }> = [];
      const notFound: string[] = [];
      const failed: Array<{ code: string; error: unknown }> = [];
      const results = await Promise.allSettled(
        codes.map((code) => deps.lookup.getItem({ code }, { requester: actor.userId })),
      );
      results.forEach((result, index) => {
        const code = codes[index] ?? '';
        if (result.status === 'fulfilled') {
          found.push({ item: result.value.data, freshness: result.value.freshness });
        } else if (result.reason instanceof NotFoundError) notFound.push(code);
        else failed.push({ code, error: result.reason });
      });
      return shortcutResults({ ...deps.display, found, notFound, failed, now: deps.now() });
    });
    await deliverClickAnswer({
      respond,
      answer,
      working: () => workingLine(deps, { kind: 'codes', count: codes.length }, 'getItem', actor),
      mode: 'new',
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}
