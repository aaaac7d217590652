/**
 * Slack's agent surface. The manifests declare `agent_view`, Slack's current messaging
 * experience: conversations happen in the app's Messages tab, Slack sends `app_home_opened`
 * with `tab: 'messages'` when a person opens it (in place of `assistant_thread_started`), the
 * suggested prompts are set for the tab itself (`assistant.threads.setSuggestedPrompts` with no
 * `thread_ts`, which Slack ignores for an agent app), and a message's status is set on the
 * message (`assistant.threads.setStatus`, Bolt's `setStatus`) while its answer is worked out.
 *
 * The older assistant surface (`assistant_view`, Bolt's `Assistant`) is still answered, as
 * Slack still documents it for apps not yet moved: a new thread gets suggested prompts; each
 * message in a thread gets a title, a status line while the answer is worked out ("Looking up
 * WIDGET-9…") and the answer in the thread, private as a direct message is. The panel's
 * channel context is not used: an answer never depends on where the panel is open, so nothing
 * is stored for it.
 */
import { type AllMiddlewareArgs, Assistant } from '@slack/bolt';
import type { OnceGate } from '../../../ops/onceGate.js';
import { suggestedPrompts, threadTitle, workingStatus } from '../../../views/words.js';
import { quietly as logQuietly } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { stripSlackMarkup } from '../../input.js';
import { answerReading, readWords, subjectOf } from '../../words/answer.js';
import { deliverWords } from '../../words/deliver.js';
import { PersonMessage } from '../../words/events.js';
import { askerOf, firstDelivery } from './words.js';

/**
 * The Messages tab opened (agent_view): up to four suggested prompts pinned at its top. Never
 * stops anything: a failure (an app still on the older surface) is logged.
 */
export async function messagesTabOpened(
  deps: Pick<ListenerDeps, 'logger' | 'examples'>,
  client: AllMiddlewareArgs['client'],
  channel: string,
): Promise<void> {
  await logQuietly(
    deps.logger,
    () =>
      client.assistant.threads.setSuggestedPrompts({
        channel_id: channel,
        ...suggestedPrompts(deps.examples),
      }),
    'agent: could not set the suggested prompts',
  );
}

/**
 * A direct message's status while its answer is worked out ("Looking up WIDGET-9…"), on the
 * message itself, then cleared: an answer posted outside the message's thread would not clear
 * it, and Slack would show it for two minutes. Without the agent feature Slack refuses the
 * call, which is logged and changes nothing.
 */
export async function whileWorking(
  deps: Pick<ListenerDeps, 'logger'>,
  setStatus: ((status: string) => Promise<unknown>) | undefined,
  subject: string | undefined,
  work: () => Promise<void>,
): Promise<void> {
  if (setStatus === undefined) return work();
  const status = (text: string) =>
    logQuietly(deps.logger, () => setStatus(text), 'agent: could not set the status');
  await status(workingStatus(subject));
  try {
    await work();
  } finally {
    await status('');
  }
}

export function wordsAssistant(deps: ListenerDeps, once: OnceGate): Assistant {
  // The panel's extras (prompts, title, status) never stop an answer: a failure is logged.
  const quietly = (what: string, call: () => Promise<unknown>) =>
    logQuietly(deps.logger, call, `assistant: could not ${what}`);
  return new Assistant({
    threadContextStore: { get: async () => ({}), save: async () => {} },
    threadStarted: async ({ setSuggestedPrompts }) => {
      await quietly('set the suggested prompts', () =>
        setSuggestedPrompts(suggestedPrompts(deps.examples)),
      );
    },
    threadContextChanged: async () => {},
    userMessage: async ({ message, body, context, client, setStatus, setTitle }) => {
      const parsed = PersonMessage.safeParse(message);
      const person = await firstDelivery(deps, once, context.retryNum, parsed);
      if (!person || person.thread_ts === undefined) return;
      const actor = askerOf(person, body);
      const reading = readWords(deps, person.text);
      await quietly('set the title', () => setTitle(threadTitle(stripSlackMarkup(person.text))));
      await quietly('set the status', () => setStatus(workingStatus(subjectOf(reading))));
      await deliverWords(
        deps,
        {
          chat: client.chat,
          channel: person.channel,
          threadTs: person.thread_ts,
          user: person.user,
        },
        answerReading(deps, reading, actor, client, 'private'),
        // The status line says it is working; Slack clears it when the answer is posted.
        { workingInPublic: true },
      );
    },
  });
}
