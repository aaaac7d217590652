/**
 * What `/stock` and `/contact` share: the command accepted (payload, access rules), its text
 * read by the command's grammar (usage help on a problem, help on `help`), then the answer
 * delivered within Slack's three seconds, with a working line when the ERP is slow. A sentence
 * the grammar does not read is answered as a sentence instead.
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs, SlashCommand } from '@slack/bolt';
import type { ErpEndpoint } from '../../../erp/errors.js';
import { accessRefusal } from '../../../privacy/access.js';
import type { SlackUsersApi } from '../../../privacy/revealPolicy.js';
import { markedAs } from '../../../views/blocks.js';
import {
  commandNoticeText,
  commandProblemText,
  commandRetry,
  noticeMessage,
  withNotices,
} from '../../../views/feedback.js';
import type { HelpExamples } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import type { WorkSubject } from '../../../views/progress.js';
import { unreadableText } from '../../../views/unreadable.js';
import { type IfNothingFound, isKnownToBeSlow, safely, workingLine } from '../../answers.js';
import type { Later } from '../../buildAnswer.js';
import { type CommandAck, deliverCommandAnswer, ephemeral, sendSafely } from '../../delivery.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import type { ParseResult } from '../../input.js';
import { type Actor, CommandPayload, userActor } from '../../payloads.js';
import type { SentenceReading } from '../../words/asCommand.js';

type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/**
 * The checks every command starts with: the payload has the fields we read, and the access
 * rules allow this user in this channel. Refusals are acknowledged here; `undefined` means
 * the command has been answered already.
 */
async function acceptCommand(
  deps: Pick<DeliveryDeps, 'logger' | 'access'>,
  command: SlashCommand,
  ack: CommandAck,
  family: 'stock' | 'contact',
): Promise<{ actor: Actor; text: string } | undefined> {
  const payload = CommandPayload.safeParse(command);
  if (!payload.success) {
    deps.logger.warn(
      { issues: payload.error.issues.map((issue) => issue.path.join('.')) },
      'slash command payload did not match the expected shape',
    );
    await ack(ephemeral(noticeMessage(unreadableText('command_shape'))));
    return undefined;
  }
  const { user_id: id, team_id, channel_id } = payload.data;
  const actor = userActor({ id, team_id }, channel_id);
  const refused = accessRefusal(deps, family, actor, 'command');
  if (refused !== undefined) {
    await ack(ephemeral(noticeMessage(refused)));
    return undefined;
  }
  // The parsers sanitise the text (control characters, length): it is passed on as typed.
  return { actor, text: payload.data.text };
}

export interface LookupCommand<R extends { kind: string }> {
  family: 'stock' | 'contact';
  parse: (text: string) => ParseResult<R>;
  help: (examples?: HelpExamples) => SlackMessage;
  /** The endpoint whose queue the working line reports. */
  endpoint: (request: Exclude<R, { kind: 'help' }>) => ErpEndpoint;
  subject: (request: Exclude<R, { kind: 'help' }>) => WorkSubject;
  /** The answer when the text is a sentence its grammar does not read; else undefined. */
  sentence: (
    text: string,
    request: Exclude<R, { kind: 'help' }>,
    actor: Actor,
    client: SlackUsersApi,
  ) => Promise<SentenceInstead | undefined>;
  /**
   * The grammar's answer; its search answers `ifNothingFound` instead when it finds nothing.
   * `later` replaces the delivered answer with a newer one (a long build check's progress).
   */
  answer: (
    request: Exclude<R, { kind: 'help' }>,
    actor: Actor,
    client: SlackUsersApi,
    ifNothingFound?: IfNothingFound,
    later?: Later,
  ) => Promise<SlackMessage>;
}

/**
 * A sentence answered instead of the grammar: now, or only when the grammar's own search finds
 * nothing (decided by that one search, never by a second one asked beforehand).
 */
type SentenceInstead = { now: SlackMessage } | { ifNothingFound: IfNothingFound };

/** A sentence's reading answered by `answer`: now, or once the grammar's search finds nothing. */
export async function sentenceInstead<T>(
  found: SentenceReading<T> | undefined,
  answer: (reading: T) => Promise<SlackMessage>,
): Promise<SentenceInstead | undefined> {
  if (found === undefined) return undefined;
  if ('now' in found) return { now: await answer(found.now) };
  return { ifNothingFound: () => answer(found.ifNothingFound) };
}

export function lookupCommand<R extends { kind: string }>(
  deps: DeliveryDeps & Pick<ItemDeps, 'lookup'>,
  spec: LookupCommand<R>,
) {
  return async ({ command, ack, respond, client }: CommandArgs): Promise<void> => {
    const accepted = await acceptCommand(deps, command, ack, spec.family);
    if (!accepted) return;
    const later: Later = async (message) => {
      await sendSafely(deps.logger, respond, { ...ephemeral(message), replace_original: true });
    };
    const run = answerText(deps, spec, accepted.text, accepted.actor, client, later);
    if ('now' in run) {
      await ack(ephemeral(run.now));
      return;
    }
    await deliverCommandAnswer({ ack, respond, ...run, timing: deps.timing, logger: deps.logger });
  };
}

/** A command's text answered: help or usage at once, or a lookup with its working line. */
type TextRun =
  | { now: SlackMessage }
  | {
      answer: Promise<SlackMessage>;
      working: () => SlackMessage;
      knownToBeSlow: () => boolean;
    };

/**
 * The text read by the command's grammar and answered; a failure that may pass (ERP down,
 * busy) carries "Try again", which asks the same text again (commandRetry.ts).
 */
export function answerText<R extends { kind: string }>(
  deps: DeliveryDeps & Pick<ItemDeps, 'lookup'>,
  spec: LookupCommand<R>,
  text: string,
  actor: Actor,
  client: SlackUsersApi,
  later?: Later,
): TextRun {
  const parsed = spec.parse(text);
  // Help is drawn only when it is the answer: the examples read the catalogue index.
  const help = () => spec.help(deps.examples);
  if (!parsed.ok) {
    return { now: markedAs(withNotices(help(), [commandProblemText(parsed.error)]), 'usage') };
  }
  const notices = parsed.notices.map(commandNoticeText);
  const request = parsed.request;
  if (!isLookup(request)) return { now: withNotices(help(), notices) };
  const endpoint = spec.endpoint(request);
  const retry = commandRetry(spec.family, text);
  return {
    answer: safely(
      deps.logger,
      `/${spec.family}`,
      async () => {
        const sentence = await spec.sentence(text, request, actor, client);
        if (sentence && 'now' in sentence) return sentence.now;
        // The sentence's answer stands as it is: the notices are about the grammar's reading.
        let instead: SlackMessage | undefined;
        const ifNothingFound =
          sentence && (async () => (instead = await sentence.ifNothingFound()));
        const answer = await spec.answer(request, actor, client, ifNothingFound, later);
        return instead ?? withNotices(answer, notices);
      },
      retry,
    ),
    working: () => workingLine(deps, spec.subject(request), endpoint, actor),
    knownToBeSlow: () => isKnownToBeSlow(deps, endpoint, actor),
  };
}

/** Not `help`: a request the command answers with a lookup. */
const isLookup = <R extends { kind: string }>(
  request: R,
): request is Exclude<R, { kind: 'help' }> => request.kind !== 'help';
