import { isErpError } from '../../erp/errors.js';
import { InputError } from '../../lookup/types.js';
import { accessRefusal } from '../../privacy/access.js';
import type { SlackUsersApi } from '../../privacy/revealPolicy.js';
import {
  commandRetry,
  contactWordsRetry,
  noticeMessage,
  type RetryButton,
  withNotices,
} from '../../views/feedback.js';
import { watchesNotReadyText } from '../../views/help.js';
import type { SlackMessage } from '../../views/message.js';
import {
  accountOnlyCard,
  notSureMessage,
  notUnderstoodMessage,
  privateCopyNote,
  sentPrivatelyNote,
  watchProposal,
  wordsHelp,
} from '../../views/words.js';
import { commandFor, type Reading, type WordsRequest } from '../../words/reading.js';
import { internalFiguresFor, itemCardAnswer, safely } from '../answers.js';
import { codesAnswer } from '../codesAnswer.js';
import type { ListenerDeps } from '../deps.js';
import { contactAnswer } from '../listeners/commands/contact.js';
import { stockAnswer } from '../listeners/commands/stock.js';
import type { Actor } from '../payloads.js';
import { accountOf } from './account.js';
import { contactRequestAnswer, stockRequestAnswer } from './asCommand.js';
import { sharedPhraseAnswer } from './phrase.js';
import { readWords } from './read.js';
import { watchIntentAnswer } from './watchIntents.js';

export { readWords };

/** Where the answer is read: by the asker alone, or by everyone in a channel's thread. */
export type Place = 'private' | 'channel';

export interface WordsReply {
  /** Posted where the sentence was (in a channel: seen by everyone in the thread). */
  reply?: SlackMessage;
  /** Seen by the asker only (an ephemeral message in the thread). */
  askerOnly?: SlackMessage;
}

/** What the status line names while the answer is worked out (`WIDGET-9`). */
export function subjectOf(reading: Reading): string | undefined {
  if (reading.kind !== 'request') return undefined;
  const { request } = reading;
  switch (request.kind) {
    case 'item':
    case 'watch':
      return request.code;
    case 'codes':
      return request.codes.join(', ');
    case 'contact':
      return 'code' in request.account ? request.account.code : request.account.words.join(' ');
    case 'unwatch':
      return request.code;
    case 'help':
    case 'watches':
      return undefined;
  }
}

/** The answer to a sentence already read; never rejects (errors become messages). */
export function answerReading(
  deps: ListenerDeps,
  reading: Reading,
  actor: Actor,
  client: SlackUsersApi,
  place: Place,
): Promise<WordsReply> {
  switch (reading.kind) {
    case 'not_understood':
      return Promise.resolve({
        reply: notUnderstoodMessage(reading.reason, reading.words, deps.examples),
      });
    case 'not_sure':
      return Promise.resolve({ reply: notSureMessage(reading) });
    case 'request':
      return answerRequest(deps, reading.request, actor, client, place);
  }
}

async function answerRequest(
  deps: ListenerDeps,
  request: WordsRequest,
  actor: Actor,
  client: SlackUsersApi,
  place: Place,
): Promise<WordsReply> {
  const mine = (message: SlackMessage): WordsReply =>
    place === 'channel' ? { askerOnly: message } : { reply: message };
  if (request.kind === 'help') return { reply: wordsHelp(deps.examples) };
  const family = request.kind === 'contact' ? 'contact' : 'stock';
  const refused = accessRefusal(deps, family, actor, 'sentence');
  if (refused !== undefined) return mine(noticeMessage(refused));
  // "stop watching WIDGET-9", "what are we watching?": the asker's, privately.
  if (request.kind === 'watches' || request.kind === 'unwatch') {
    return mine(await safely(deps.logger, 'words', () => watchIntentAnswer(deps, request, actor)));
  }
  if (request.kind === 'watch') {
    // Proposed to the asker: a watch is set only by their click.
    if (!deps.watches) return mine(noticeMessage(watchesNotReadyText('watch')));
    return mine(watchProposal(request));
  }
  // A guest or an external gets what the command gives them, privately; so does everyone in
  // a private place.
  if (place === 'private' || !(await internalFiguresFor(deps.internal, actor, client))) {
    return mine(await privateAnswer(deps, request, actor, client));
  }
  const retry = retryOf(request);
  if (request.kind === 'contact') {
    let account: Awaited<ReturnType<typeof accountOf>> | undefined;
    const full = await safely(
      deps.logger,
      'words',
      async () => {
        const answer = await commandAnswer(deps, request, actor, client);
        // The same reads again: answered by the cache. Not after a failure, which they would
        // only repeat, spending the ERP's calls twice and opening its breaker for everyone.
        account = await accountOf(deps, request.account, actor).catch(() => undefined);
        return answer;
      },
      retry,
    );
    return {
      reply: account
        ? accountOnlyCard({ ...account, sandbox: deps.display?.sandbox })
        : noticeMessage(sentPrivatelyNote()),
      askerOnly: withNotices(full, [privateCopyNote()]),
    };
  }
  return {
    reply: await safely(
      deps.logger,
      'words',
      () => channelItemAnswer(deps, request, actor, client),
      retry,
    ),
  };
}

/**
 * "Try again" on a failure that may pass, asked again by whoever presses it (commandRetry.ts):
 * the command text the sentence stands for; for a contact asked by account words with people
 * words, which no one command text says, those words, answered again as this sentence is
 * (`contactWordsAgain`). Not the account's code even when its search found one: the search
 * may be what failed, and when it was not, asking it again is answered by the cache. Words
 * past what a button carries get no button (`stateButton`) rather than another question.
 */
function retryOf(request: WordsRequest): RetryButton | undefined {
  const command = commandFor(request);
  if (command !== undefined) {
    return commandRetry(command.command === '/contact' ? 'contact' : 'stock', command.text);
  }
  if (request.kind !== 'contact' || !('words' in request.account)) return undefined;
  return contactWordsRetry(request.account.words, request.peopleWords);
}

/** A contact question's words as its Try again carries them (`contactWordsRetry`). */
type ContactWords = { a: readonly string[]; p: readonly string[] };

/**
 * Try again pressed on a contact asked by account words with people words: the same request
 * answered again, as the sentence was (the account's search, its card with only those people
 * when it finds one account), with a Try again of its own should it fail again.
 */
export function contactWordsAgain(
  deps: ListenerDeps,
  words: ContactWords,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const request = {
    kind: 'contact' as const,
    account: { words: [...words.a] },
    peopleWords: [...words.p],
  };
  return privateAnswer(deps, request, actor, client);
}

/** The answer the command would give the asker, with Try again should it fail. */
function privateAnswer(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'item' | 'codes' | 'contact' }>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  return safely(
    deps.logger,
    'words',
    () => commandAnswer(deps, request, actor, client),
    retryOf(request),
  );
}

/** In a channel: the item card as a shared card (no cost); anything else as the command's. */
async function channelItemAnswer(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'item' | 'codes' }>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  if (request.kind === 'codes') {
    return codesAnswer(deps, request.codes, actor, 'command', undefined, request.question);
  }
  const question =
    request.quantity === undefined && request.branchWords.length === 0
      ? undefined
      : {
          ...(request.quantity === undefined ? {} : { quantity: request.quantity }),
          branchWords: request.branchWords,
        };
  try {
    // `the widget-9 bracket`: words after the code may name another item than the code's.
    const phrased = await sharedPhraseAnswer(deps, request, actor, client);
    if (phrased && 'answer' in phrased) return phrased.answer;
    const code = phrased?.code ?? request.code;
    return await itemCardAnswer(
      deps,
      { ref: { code }, ...(question ? { question } : {}), shared: true },
      actor,
      client,
    );
  } catch (error) {
    // Not found (remembered by the cache, so no second call) or a usage problem: the
    // command's own answer says it. Anything else (the ERP down or busy, misconfigured,
    // answering unexpected data) would only fail again through the command, spending the
    // calls twice: the failure itself is the answer (with Try again when it may pass).
    const askedAmiss =
      error instanceof InputError || (isErpError(error) && error.audience === 'user');
    if (!askedAmiss) throw error;
    return commandAnswer(deps, request, actor, client);
  }
}

/** The command's answer to the request, through the command's own grammar and code. */
function commandAnswer(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'item' | 'codes' | 'contact' }>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  if (request.kind === 'contact') {
    return contactRequestAnswer(deps, request, actor, client, (lookup) =>
      contactAnswer(deps, lookup, actor, client),
    );
  }
  return stockRequestAnswer(deps, request, (lookup) => stockAnswer(deps, lookup, actor, client));
}
