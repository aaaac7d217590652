/**
 * Message shortcut "Look up stock" (callback_id `stock_lookup_message`): finds the distinct
 * item codes in the message, looks up the first five and answers ephemerally with one line
 * each, naming the rest. When the message is in a thread, the answer goes to that thread, and
 * so do cards opened and shared from it.
 */
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { NotFoundError } from '../../../erp/errors.js';
import { checkAccess } from '../../../privacy/access.js';
import { noticeMessage } from '../../../views/feedback.js';
import { unreadableText } from '../../../views/unreadable.js';
import { itemCardAnswer, safely, workingLine } from '../../answers.js';
import { extractItemCodes, sameCode } from '../../codes.js';
import { codesAnswer, MAX_CODES } from '../../codesAnswer.js';
import { deliverClickAnswer, privateReply, sendSafely } from '../../delivery.js';
import type { DeliveryDeps, ItemDeps, WordsDeps } from '../../deps.js';
import { MessageShortcutPayload } from '../../payloads.js';
import { readWords } from '../../words/read.js';

export const LOOK_UP_STOCK_CALLBACK_ID = 'stock_lookup_message';
/** Codes named past the ones looked up ("+2 more: …"): a bound on a pasted price list. */
const MAX_NAMED = 50;

type ShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;

/** Message shortcut "Look up stock". */
export function lookUpStockShortcut(deps: DeliveryDeps & ItemDeps & WordsDeps) {
  return async ({ shortcut, ack, respond, client }: ShortcutArgs): Promise<void> => {
    await ack();
    const payload = MessageShortcutPayload.safeParse(shortcut);
    const threadTs = payload.success ? payload.data.message.thread_ts : undefined;
    const say = (text: string) =>
      sendSafely(deps.logger, respond, {
        ...privateReply(noticeMessage(text)),
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      });
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
    const codes = extractItemCodes(payload.data.message.text, MAX_CODES + MAX_NAMED, {
      // Lower-case and accented codes count when the catalogue index knows them.
      knownCode: (piece) =>
        deps.catalogue?.nearestCodes(piece).find((code) => sameCode(code, piece)),
      // From the first minute: while the index fills, `is widget-9 in?` still finds WIDGET-9.
      upperWhenUnknown: !(deps.catalogue?.isComplete() ?? false),
    });
    if (codes.length === 0) {
      await say(unreadableText('no_codes'));
      return;
    }
    const looked = Math.min(codes.length, MAX_CODES);
    // "20 x WIDGET-9 for Perth": one code with a quantity or branch next to it is a question.
    const question = codes.length === 1 ? questionIn(deps, payload.data.message.text) : undefined;
    await deliverClickAnswer({
      respond,
      answer: safely(deps.logger, 'look up stock', async () => {
        if (question && sameCode(question.code, codes[0] ?? '')) {
          try {
            return await itemCardAnswer(deps, { ...question, threadTs }, actor, client);
          } catch (error) {
            if (!(error instanceof NotFoundError)) throw error;
          }
        }
        return codesAnswer(deps, codes, actor, 'shortcut', threadTs);
      }),
      working: () => workingLine(deps, { kind: 'codes', count: looked }, 'getItem', actor),
      mode: 'new',
      threadTs,
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}

/** The quantity and branch a message asks about its one code, read as a sentence. */
function questionIn(
  deps: Pick<ItemDeps, 'catalogue'> & WordsDeps,
  text: string,
):
  | { ref: { code: string }; code: string; question: { quantity?: number; branchWords: string[] } }
  | undefined {
  const reading = readWords(deps, text);
  if (reading.kind !== 'request' || reading.request.kind !== 'item') return undefined;
  const { code, quantity, branchWords } = reading.request;
  if (quantity === undefined && branchWords.length === 0) return undefined;
  return {
    ref: { code },
    code,
    question: { ...(quantity === undefined ? {} : { quantity }), branchWords },
  };
}
