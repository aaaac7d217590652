/**
 * "is ACME01 on stop credit?": the account's answer with its stop-credit line first. The line
 * is an account term: for the asker when their card shows terms (else a word that it is not
 * theirs to see); in a channel's thread only when SHARE_ACCOUNT_TERMS allows it (channel.ts
 * decides that, with this).
 */
import type { Contact } from '../../erp/schemas.js';
import type { SlackUsersApi } from '../../privacy/revealPolicy.js';
import type { SlackMessage } from '../../views/message.js';
import { stopCreditHidden, stopCreditLine, withLeadLine } from '../../views/stopCredit.js';
import type { WordsRequest } from '../../words/reading.js';
import { internalFiguresFor } from '../answers.js';
import type { ListenerDeps } from '../deps.js';
import type { Actor } from '../payloads.js';
import { accountOf } from './account.js';

type ContactRequest = Extract<WordsRequest, { kind: 'contact' }>;

/** The line first, for a contact the answer named; the message as it was otherwise. */
export function leadWithStopCredit(
  message: SlackMessage,
  contact: Pick<Contact, 'code' | 'stopcred'> | undefined,
  mayShow: boolean,
): SlackMessage {
  if (contact === undefined) return message;
  return withLeadLine(message, mayShow ? stopCreditLine(contact) : stopCreditHidden(contact.code));
}

/**
 * The asker's answer (already built, not a failure) with the line first when the question
 * asked it and names one account; its read is the cache's (the answer just made it).
 */
export async function askerStopCredit(
  deps: ListenerDeps,
  request: ContactRequest,
  actor: Actor,
  client: SlackUsersApi,
  answer: SlackMessage,
): Promise<SlackMessage> {
  if (request.ask !== 'stop_credit') return answer;
  const [account, mayShow] = await Promise.all([
    accountOf(deps, request.account, actor).catch(() => undefined),
    internalFiguresFor(deps.internal, actor, client),
  ]);
  return leadWithStopCredit(answer, account?.contact, mayShow);
}
