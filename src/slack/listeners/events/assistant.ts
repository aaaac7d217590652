/**
 * Slack's assistant panel (Bolt's `Assistant`): a new thread gets suggested prompts; each
 * message in a thread gets a title, a status line while the answer is worked out ("Looking up
 * WIDGET-9…") and the answer in the thread, private as a direct message is. The panel's
 * channel context is not used: an answer never depends on where the panel is open, so nothing
 * is stored for it.
 */
import { Assistant } from '@slack/bolt';
import type { OnceGate } from '../../../ops/onceGate.js';
import { suggestedPrompts, threadTitle, workingStatus } from '../../../views/words.js';
import { quietly as logQuietly } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { stripSlackMarkup } from '../../input.js';
import { answerReading, subjectOf } from '../../words/answer.js';
import { deliverWords } from '../../words/deliver.js';
import { PersonMessage } from '../../words/events.js';
import { conversationKey, readInConversation } from '../../words/followUps.js';
import { askerOf, firstDelivery } from './words.js';

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
      const conversation = conversationKey(person.channel, person.thread_ts);
      const reading = await readInConversation(deps, person.text, conversation);
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
