import { accessRefusal, checkAccess } from '../../privacy/access.js';
import type { SlackUsersApi } from '../../privacy/revealPolicy.js';
import {
  commandRetry,
  contactWordsRetry,
  noticeMessage,
  type RetryButton,
} from '../../views/feedback.js';
import { watchesNotReadyText } from '../../views/help.js';
import type { SlackMessage } from '../../views/message.js';
import {
  notSureMessage,
  notUnderstoodMessage,
  watchProposal,
  wordsHelp,
} from '../../views/words.js';
import { commandFor, type Reading, type WordsRequest } from '../../words/reading.js';
import { internalFiguresFor, safely } from '../answers.js';
import type { ListenerDeps } from '../deps.js';
import { contactAnswer } from '../listeners/commands/contact.js';
import { stockAnswer } from '../listeners/commands/stock.js';
import type { Actor } from '../payloads.js';
import { contactRequestAnswer, stockRequestAnswer } from './asCommand.js';
import { channelReply } from './channel.js';
import { priceAnswer } from './price.js';
import { readWords } from './read.js';
import { askerStopCredit } from './stopCredit.js';
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
    case 'price':
    case 'watch':
    case 'build':
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

/**
 * Who reads the answer, decided once, before any reading is answered: someone the access
 * lists refuse (the refusal, to them alone); the asker alone (a private place, or a guest or
 * an external in a channel: what the command gives them); or everyone in a channel's thread
 * (a full member there: channel.ts decides what the thread sees).
 */
type Audience = { kind: 'refused'; notice: string } | { kind: 'asker' } | { kind: 'channel' };

/** The commands a reading stands for; none for help and what was not understood. */
function familyOf(reading: Reading): 'stock' | 'contact' | undefined {
  if (reading.kind === 'not_sure') return 'stock';
  if (reading.kind === 'not_understood' || reading.request.kind === 'help') return undefined;
  return reading.request.kind === 'contact' ? 'contact' : 'stock';
}

async function audienceOf(
  deps: ListenerDeps,
  reading: Reading,
  actor: Actor,
  client: SlackUsersApi,
  place: Place,
): Promise<Audience> {
  const family = familyOf(reading);
  // Help and what was not understood name no command: refused only to whom both are.
  const refused =
    family !== undefined
      ? accessRefusal(deps, family, actor, 'sentence')
      : checkAccess(deps.access.contact, actor, '/contact').allowed
        ? undefined
        : accessRefusal(deps, 'stock', actor, 'sentence');
  if (refused !== undefined) return { kind: 'refused', notice: refused };
  if (place === 'private') return { kind: 'asker' };
  return (await internalFiguresFor(deps.internal, actor, client))
    ? { kind: 'channel' }
    : { kind: 'asker' };
}

/** The answer to a sentence already read; never rejects (errors become messages). */
export async function answerReading(
  deps: ListenerDeps,
  reading: Reading,
  actor: Actor,
  client: SlackUsersApi,
  place: Place,
): Promise<WordsReply> {
  // In a channel, what is the asker's alone is an ephemeral message in the thread.
  const mine = (message: SlackMessage): WordsReply =>
    place === 'channel' ? { askerOnly: message } : { reply: message };
  const audience = await audienceOf(deps, reading, actor, client, place);
  switch (audience.kind) {
    case 'refused':
      return mine(noticeMessage(audience.notice));
    case 'asker':
      return mine(await askerAnswer(deps, reading, actor, client));
    case 'channel':
      return channelReply(deps, reading, actor, client, {
        commandAnswer: (request) => commandAnswer(deps, request, actor, client),
        retryOf,
      });
  }
}

/** The reading answered for the asker alone, as the command it stands for would answer. */
function askerAnswer(
  deps: ListenerDeps,
  reading: Reading,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  if (reading.kind === 'not_understood') {
    return Promise.resolve(notUnderstoodMessage(reading.reason, reading.words, deps.examples));
  }
  if (reading.kind === 'not_sure') return Promise.resolve(notSureMessage(reading));
  const { request } = reading;
  if (request.kind === 'help') return Promise.resolve(wordsHelp(deps.examples));
  // "stop watching WIDGET-9", "what are we watching?": the asker's, privately.
  if (request.kind === 'watches' || request.kind === 'unwatch') {
    return safely(deps.logger, 'words', () => watchIntentAnswer(deps, request, actor));
  }
  if (request.kind === 'price') {
    return safely(
      deps.logger,
      'words',
      () => priceAnswer(deps, request, actor, client, false),
      retryOf(request),
    );
  }
  if (request.kind === 'watch') {
    // Proposed to the asker: a watch is set only by their click.
    return Promise.resolve(
      deps.watches ? watchProposal(request) : noticeMessage(watchesNotReadyText('watch')),
    );
  }
  return privateAnswer(deps, request, actor, client);
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
  request: Extract<WordsRequest, { kind: 'item' | 'codes' | 'contact' | 'build' }>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  return safely(
    deps.logger,
    'words',
    async () => {
      const answer = await commandAnswer(deps, request, actor, client);
      return request.kind === 'contact'
        ? askerStopCredit(deps, request, actor, client, answer)
        : answer;
    },
    retryOf(request),
  );
}

/** The command's answer to the request, through the command's own grammar and code. */
function commandAnswer(
  deps: ListenerDeps,
  request: Extract<WordsRequest, { kind: 'item' | 'codes' | 'contact' | 'build' }>,
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
