/**
 * Several item codes at once, one line each: the message shortcut's answer and `/stock A, B`.
 * Each code is one getItem; a code the ERP does not know is listed as not found, and codes
 * past the ones looked up are named so none is dropped silently.
 */

import { NotFoundError } from '../erp/errors.js';
import type { Item } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import { commandRetry } from '../views/feedback.js';
import type { SlackMessage } from '../views/message.js';
import { shortcutResults } from '../views/shortcut.js';
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
): Promise<SlackMessage> {
  const asked = codes.slice(0, MAX_CODES);
  const found: Array<{ item: Item; freshness: Freshness }> = [];
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
      found.push({ item: result.value.data, freshness: result.value.freshness });
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
    ...(failed.length > 0 ? { retry: commandRetry('stock', asked.join(', ')) } : {}),
    source,
    threadTs,
    now: deps.now(),
  });
}
