/**
 * The shape both slash commands share: access check, parse, help, then the answer delivered
 * within Slack's timing (on the acknowledgement when quick, else a working line and the answer).
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { ErpRef } from '../../../erp/api.js';
import type { ErpEndpoint } from '../../../erp/errors.js';
import { checkAccess } from '../../../privacy/access.js';
import type { SlackUsersApi } from '../../../privacy/revealPolicy.js';
import { commandNoticeText, commandProblemText } from '../../../views/commandProblems.js';
import type { HelpExamples } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import { withNotices } from '../../../views/notices.js';
import type { WorkSubject } from '../../../views/progress.js';
import {
  byCodeAnswer,
  isKnownToBeSlow,
  type Surface,
  safely,
  searchAnswer,
  workingLine,
} from '../../answers.js';
import { deliverCommandAnswer, ephemeral } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import type { ParseResult } from '../../parser.js';
import type { Actor } from '../../payloads.js';
import { acceptCommand } from './common.js';

export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

export interface CommandSpec<R extends { kind: string }> {
  name: '/stock' | '/contact';
  family: 'stock' | 'contact';
  parse(text: string): ParseResult<R>;
  help(examples: HelpExamples | undefined): SlackMessage;
  /** The ERP endpoint a request will wait on: what the working line talks about. */
  endpoint(request: Exclude<R, { kind: 'help' }>): ErpEndpoint;
  /** What the working line talks about (the view words it). */
  describe(request: Exclude<R, { kind: 'help' }>): WorkSubject;
  answer(
    deps: ListenerDeps,
    request: Exclude<R, { kind: 'help' }>,
    actor: Actor,
    client: SlackUsersApi,
  ): Promise<SlackMessage>;
}

const isHelp = <R extends { kind: string }>(request: R): request is Extract<R, { kind: 'help' }> =>
  request.kind === 'help';

export function lookupCommand<R extends { kind: string }>(spec: CommandSpec<R>) {
  return (deps: ListenerDeps) =>
    async ({ command, ack, respond, client }: CommandArgs): Promise<void> => {
      const accepted = await acceptCommand(deps, command, ack, (who) =>
        checkAccess(deps.access[spec.family], who, spec.name),
      );
      if (!accepted) return;
      const parsed = spec.parse(accepted.text);
      if (!parsed.ok) {
        await ack(
          ephemeral(withNotices(spec.help(deps.examples), [commandProblemText(parsed.error)])),
        );
        return;
      }
      const request = parsed.request;
      const notices = parsed.notices.map(commandNoticeText);
      if (isHelp(request)) {
        await ack(ephemeral(withNotices(spec.help(deps.examples), notices)));
        return;
      }
      const lookup = request as Exclude<R, { kind: 'help' }>;
      const endpoint = spec.endpoint(lookup);
      const answer = safely(deps, spec.name, async () =>
        withNotices(await spec.answer(deps, lookup, accepted.actor, client), notices),
      );
      await deliverCommandAnswer({
        ack,
        respond,
        answer,
        working: () => workingLine(deps, spec.describe(lookup), endpoint, accepted.actor),
        knownToBeSlow: () => isKnownToBeSlow(deps, endpoint, accepted.actor),
        timing: deps.timing,
        logger: deps.logger,
      });
    };
}

/** What `/stock` and `/contact` parse to: help, an exact lookup, or a search. */
export type SurfaceRequest<Q> =
  | { kind: 'help' }
  | { kind: 'item' | 'contact'; ref: ErpRef; token: string }
  | { kind: 'search'; query: Q };

/** How a command over items or contacts waits and answers: the card, or a search list. */
export function surfaceSpec<Q extends { words: readonly string[] }, Row extends { code: string }>(
  surface: Surface<Q, Row>,
): Pick<CommandSpec<SurfaceRequest<Q>>, 'endpoint' | 'describe' | 'answer'> {
  return {
    endpoint: (request) =>
      request.kind === 'search' ? surface.endpoints.search : surface.endpoints.record,
    describe: (request) =>
      request.kind === 'search'
        ? { kind: 'search', noun: surface.noun }
        : { kind: 'record', noun: surface.noun, ref: request.ref },
    answer: (deps, request, actor, client) =>
      request.kind === 'search'
        ? searchAnswer(surface, deps, request.query, 0, actor)
        : byCodeAnswer(
            surface,
            deps,
            { ref: request.ref, token: request.token, query: surface.queryFor(request.token) },
            actor,
            client,
          ),
  };
}

/** A command over items or contacts: the card (with the search fallback) or a search list. */
export function surfaceCommand<
  Q extends { words: readonly string[] },
  Row extends { code: string },
>(
  surface: Surface<Q, Row>,
  command: Pick<CommandSpec<SurfaceRequest<Q>>, 'name' | 'family' | 'parse' | 'help'>,
) {
  return lookupCommand<SurfaceRequest<Q>>({ ...command, ...surfaceSpec(surface) });
}
