/**
 * Several item codes at once, one line each: the message shortcut's answer and `/stock A, B`.
 * Each code is one getItem; a code the ERP does not know is listed as not found, and codes
 * past the ones looked up are named so none is dropped silently.
 */

import { NotFoundError } from '../erp/errors.js';
import type { Item } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import { type StockVerdict, stockVerdict } from '../rules/stock.js';
import { commandRetry } from '../views/feedback.js';
import type { SlackMessage } from '../views/message.js';
import { shortcutResults } from '../views/shortcut.js';
import { type CodesQuestion, codesText } from '../words/reading.js';
import { knownItemCode } from './answers.js';
import type { DeliveryDeps, ItemDeps } from './deps.js';
import type { Actor } from './payloads.js';

/** How many codes one answer looks up: the rest are named, not looked up. */
export const MAX_CODES = 5;

export async function codesAnswer(
  deps: Pick<ItemDeps, 'lookup' | 'catalogue'> & Pick<DeliveryDeps, 'display' | 'now'>,
  codes: readonly string[],
  actor: Actor,
  source: 'shortcut' | 'command',
  threadTs?: string,
  question?: CodesQuestion,
): Promise<SlackMessage> {
  const asked = codes.slice(0, MAX_CODES);
  const found: Array<{ item: Item; freshness: Freshness; verdict?: StockVerdict }> = [];
  const notFound: string[] = [];
  const failed: Array<{ code: string; error: unknown }> = [];
  const results = await Promise.allSettled(
    asked.map((code) =>
      deps.lookup.getItem({ code: knownItemCode(deps, code) }, { requester: actor.userId }),
    ),
  );
  results.forEach((result, index) => {
    const code = asked[index] ?? '';
    if (result.status === 'fulfilled') {
      const item = result.value.data;
      // Each code its own quantity, all at the question's branch: a verdict line each.
      const verdict =
        question === undefined
          ? undefined
          : stockVerdict(item, {
              ...(question.quantities[index] === undefined
                ? {}
                : { quantity: question.quantities[index] }),
              branchWords: question.branchWords,
            });
      found.push({ item, freshness: result.value.freshness, ...(verdict ? { verdict } : {}) });
    } else if (result.reason instanceof NotFoundError) notFound.push(code);
    else failed.push({ code, error: result.reason });
  });
  return shortcutResults({
    ...deps.display,
    found,
    notFound,
    failed,
    notLookedUp: codes.slice(MAX_CODES),
    // "Try again" asks the same codes as `/stock A, B` would (the found ones come from cache).
    ...(failed.length > 0
      ? { retry: commandRetry('stock', codesText(asked, question && { ...question })) }
      : {}),
    source,
    threadTs,
    now: deps.now(),
  });
}
