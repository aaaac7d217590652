/**
 * Slack's agent surface. The manifests declare `agent_view`, Slack's current messaging
 * experience: conversations happen in the app's Messages tab, Slack sends `app_home_opened`
 * with `tab: 'messages'` when a person opens it (in place of `assistant_thread_started`), the
 * suggested prompts are set for the tab itself (`assistant.threads.setSuggestedPrompts` with no
 * `thread_ts`, which Slack ignores for an agent app), and a message's status is set on the
 * message (`assistant.threads.setStatus`, Bolt's `setStatus`) while its answer is worked out.
 * The older assistant surface (`assistant_view`) is still answered by assistant.ts, as Slack
 * still documents it for apps not yet moved.
 */
import type { AllMiddlewareArgs } from '@slack/bolt';
import { suggestedPrompts, workingStatus } from '../../../views/words.js';
import { quietly as logQuietly } from '../../delivery.js';
import type { DeliveryDeps } from '../../deps.js';

/**
 * The Messages tab opened: up to four suggested prompts pinned at its top. Never stops
 * anything: a failure (an app still on the older surface) is logged.
 */
export async function messagesTabOpened(
  deps: Pick<DeliveryDeps, 'logger' | 'examples'>,
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
  deps: Pick<DeliveryDeps, 'logger'>,
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
