/**
 * "price of WIDGET-9": the item card with its sell price as the first line, for the asker or
 * (shared, no cost unless SHARE_COST) for a channel's thread. A code typed in another case than
 * the ERP's is found by one search, as the command finds it; none found is said so.
 */
import { NotFoundError } from '../../erp/errors.js';
import type { SlackUsersApi } from '../../privacy/revealPolicy.js';
import { noticeMessage } from '../../views/feedback.js';
import type { SlackMessage } from '../../views/message.js';
import { notFoundNotice } from '../../views/notFound.js';
import type { WordsRequest } from '../../words/reading.js';
import { codeBySearch, itemCardAnswer } from '../answers.js';
import type { ListenerDeps } from '../deps.js';
import type { Actor } from '../payloads.js';

export async function priceAnswer(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'price' }>,
  actor: Actor,
  client: SlackUsersApi,
  shared: boolean,
): Promise<SlackMessage> {
  const card = (code: string) =>
    itemCardAnswer(deps, { ref: { code }, priceFirst: true, shared }, actor, client);
  try {
    return await card(request.code);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const code = await codeBySearch(deps, request.code, actor);
    if (code !== undefined) return card(code);
    return noticeMessage(notFoundNotice({ noun: 'item', ref: { code: request.code } }));
  }
}
