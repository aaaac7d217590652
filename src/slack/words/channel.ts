/**
 * What a channel sees of a sentence: the one place that decides it. Reached only for a full
 * member of the installing workspace, after the access lists (answer.ts decides the audience
 * first). Everything the thread shows is a form made for everyone: the shared item card (no
 * cost unless SHARE_COST, no private buttons), the account-only contact card, the codes' lines,
 * the question back, a notice. Anything else (the command's own answer, a watch proposal, a
 * usage problem) goes to the asker alone. A `ChannelSafe` message is made only here.
 */
import { isErpError, NotFoundError } from '../../erp/errors.js';
import { InputError } from '../../lookup/types.js';
import type { SlackUsersApi } from '../../privacy/revealPolicy.js';
import {
  errorMessage,
  noticeMessage,
  type RetryButton,
  withNotices,
} from '../../views/feedback.js';
import { watchesNotReadyText } from '../../views/help.js';
import type { SlackMessage } from '../../views/message.js';
import { notFoundNotice } from '../../views/notFound.js';
import {
  accountOnlyCard,
  notSureMessage,
  notUnderstoodMessage,
  privateCopyNote,
  sentPrivatelyNote,
  watchProposal,
  wordsHelp,
} from '../../views/words.js';
import { MAX_CANDIDATES, type Reading, type WordsRequest } from '../../words/reading.js';
import { itemCardAnswer, logFailure, lookupOptions, safely } from '../answers.js';
import { buildAnswer } from '../buildAnswer.js';
import { codesAnswer } from '../codesAnswer.js';
import type { ListenerDeps } from '../deps.js';
import type { Actor } from '../payloads.js';
import { accountOf } from './account.js';
import { sharedPhraseAnswer } from './phrase.js';
import { priceAnswer } from './price.js';
import { leadWithStopCredit } from './stopCredit.js';
import { watchIntentAnswer } from './watchIntents.js';

declare const shownToAll: unique symbol;

/** A message drawn for everyone in a channel: only this module makes one. */
export type ChannelSafe = SlackMessage & { readonly [shownToAll]: true };

const shown = (message: SlackMessage) => message as ChannelSafe;

/** A member's sentence in a channel: what the thread sees, and what only the asker sees. */
export interface ChannelReply {
  reply?: ChannelSafe;
  askerOnly?: SlackMessage;
}

/** How the private parts are answered (answer.ts): the command's answer, with Try again. */
export interface PrivateParts {
  commandAnswer(
    request: Extract<WordsRequest, { kind: 'item' | 'contact' }>,
  ): Promise<SlackMessage>;
  retryOf(request: WordsRequest): RetryButton | undefined;
}

export async function channelReply(
  deps: ListenerDeps,
  reading: Reading,
  actor: Actor,
  client: SlackUsersApi,
  parts: PrivateParts,
): Promise<ChannelReply> {
  switch (reading.kind) {
    case 'not_understood':
      return { reply: shown(notUnderstoodMessage(reading.reason, reading.words, deps.examples)) };
    case 'not_sure':
      return { reply: shown(notSureMessage(reading)) };
    case 'request':
      break;
  }
  const { request } = reading;
  switch (request.kind) {
    case 'help':
      return { reply: shown(wordsHelp(deps.examples)) };
    case 'watch':
      // Proposed to the asker: a watch is set only by their click.
      return {
        askerOnly: deps.watches
          ? watchProposal(request)
          : noticeMessage(watchesNotReadyText('watch')),
      };
    case 'watches':
    case 'unwatch':
      // "stop watching WIDGET-9", "what are we watching?": the asker's, privately.
      return {
        askerOnly: await safely(deps.logger, 'words', () =>
          watchIntentAnswer(deps, request, actor),
        ),
      };
    case 'codes':
      return {
        reply: shown(
          await safely(
            deps.logger,
            'words',
            () => codesAnswer(deps, request.codes, actor, 'command', undefined, request.question),
            parts.retryOf(request),
          ),
        ),
      };
    case 'price':
      // The shared card with its sell price first: a sell price is no internal figure.
      return {
        reply: shown(
          await safely(
            deps.logger,
            'words',
            () => priceAnswer(deps, request, actor, client, true),
            parts.retryOf(request),
          ),
        ),
      };
    case 'contact':
      return contactReply(deps, request, actor, parts);
    case 'item':
      return itemReply(deps, request, actor, client, parts);
    case 'build':
      // The build check names quantities only (no cost, no buttons): a form for everyone.
      return {
        reply: shown(
          await safely(
            deps.logger,
            'words',
            () => buildAnswer(deps, request, actor),
            parts.retryOf(request),
          ),
        ),
      };
  }
}

/** The account only in the thread (when the question names one); the full card privately. */
async function contactReply(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'contact' }>,
  actor: Actor,
  parts: PrivateParts,
): Promise<ChannelReply> {
  let account: Awaited<ReturnType<typeof accountOf>> | undefined;
  const full = await safely(
    deps.logger,
    'words',
    async () => {
      const answer = await parts.commandAnswer(request);
      // The same reads again: answered by the cache. Not after a failure, which they would
      // only repeat, spending the ERP's calls twice and opening its breaker for everyone.
      account = await accountOf(deps, request.account, actor).catch(() => undefined);
      return answer;
    },
    parts.retryOf(request),
  );
  // "is ACME01 on stop credit?": the line leads the asker's copy (a full member's: their card
  // shows terms); the thread sees it only where SHARE_ACCOUNT_TERMS lets terms be shared.
  const stopCredit = request.ask === 'stop_credit' ? account?.contact : undefined;
  const thread = account
    ? accountOnlyCard({ ...account, sandbox: deps.display?.sandbox })
    : noticeMessage(sentPrivatelyNote());
  return {
    reply: shown(
      deps.display?.shareAccountTerms === true
        ? leadWithStopCredit(thread, stopCredit, true)
        : thread,
    ),
    askerOnly: leadWithStopCredit(withNotices(full, [privateCopyNote()]), stopCredit, true),
  };
}

/**
 * The shared item card, whatever case the code was typed in: the card by the code (the index
 * spells it as the ERP does when it knows it); on not-found, the search for it, opening the
 * top row when its code equals the typed one ignoring case, else asking back which of the
 * rows was meant, else saying no item has it. A usage problem is the asker's to read.
 */
async function itemReply(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'item' }>,
  actor: Actor,
  client: SlackUsersApi,
  parts: PrivateParts,
): Promise<ChannelReply> {
  const question =
    request.quantity === undefined && request.branchWords.length === 0
      ? undefined
      : {
          ...(request.quantity === undefined ? {} : { quantity: request.quantity }),
          branchWords: request.branchWords,
        };
  const sharedCard = (code: string) =>
    itemCardAnswer(
      deps,
      { ref: { code }, ...(question ? { question } : {}), shared: true },
      actor,
      client,
    );
  try {
    // `the widget-9 bracket`: words after the code may name another item than the code's.
    const phrased = await sharedPhraseAnswer(deps, request, actor, client);
    if (phrased && 'answer' in phrased) return { reply: shown(phrased.answer) };
    return { reply: shown(await sharedCard(phrased?.code ?? request.code)) };
  } catch (error) {
    if (error instanceof NotFoundError) {
      return { reply: shown(await notFoundReply(deps, request, actor, sharedCard, parts)) };
    }
    const askedAmiss =
      error instanceof InputError || (isErpError(error) && error.audience === 'user');
    if (askedAmiss) return { askerOnly: await parts.commandAnswer(request) };
    // The ERP down or busy, misconfigured, answering odd data: the failure is the answer
    // (the command would only fail again, spending the calls twice).
    logFailure(deps.logger, 'words', error);
    const retry = parts.retryOf(request);
    return { reply: shown(errorMessage(error, retry === undefined ? {} : { retry })) };
  }
}

/** No item has the code as typed: the search for it decides (never the command's card). */
function notFoundReply(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'item' }>,
  actor: Actor,
  sharedCard: (code: string) => Promise<SlackMessage>,
  parts: PrivateParts,
): Promise<SlackMessage> {
  return safely(
    deps.logger,
    'words',
    async () => {
      const found = await deps.lookup.searchItems(
        { words: [request.code] },
        0,
        lookupOptions(actor),
      );
      const rows = found.data.rows;
      const top = rows[0];
      if (top && top.code.toLowerCase() === request.code.toLowerCase()) return sharedCard(top.code);
      if (rows.length === 0) {
        return noticeMessage(notFoundNotice({ noun: 'item', ref: { code: request.code } }));
      }
      return notSureMessage({
        reason: 'near_codes',
        typed: request.code,
        candidates: rows
          .slice(0, MAX_CANDIDATES)
          .map((row) => ({ code: row.code, description: row.description })),
        ...(request.quantity === undefined ? {} : { quantity: request.quantity }),
        branchWords: request.branchWords,
      });
    },
    parts.retryOf(request),
  );
}
