/**
 * The assistant panel's Web API methods (`assistant.threads.*`), checked the way Slack checks
 * them: a channel, a thread, and a status, a title or one to four prompts with a title and a
 * message each. Prompts may name no thread: an agent app's (agent_view) are set for its
 * Messages tab. The console and the tests' fake Slack answer them; nothing is shown for them.
 */
type Args = Record<string, unknown>;

const THREAD_TS = /^\d{1,12}\.\d{1,9}$/;
const text = (args: Args, key: string) =>
  typeof args[key] === 'string' && args[key] !== '' ? (args[key] as string) : undefined;

function thread(args: Args): string | undefined {
  if (text(args, 'channel_id') === undefined) return 'channel_not_found';
  const ts = text(args, 'thread_ts');
  return ts === undefined || !THREAD_TS.test(ts) ? 'invalid_thread_ts' : undefined;
}

function channel(args: Args): string | undefined {
  return text(args, 'channel_id') === undefined ? 'channel_not_found' : undefined;
}

const answer = (problem: string | undefined) =>
  problem === undefined ? { ok: true } : { ok: false, error: problem };

/** A prompts argument as sent: an array, or its JSON (form-encoded calls). */
function prompts(args: Args): unknown[] | undefined {
  let value = args.prompts;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return Array.isArray(value) ? value : undefined;
}

const isPrompt = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Args).title === 'string' &&
  typeof (value as Args).message === 'string';

export const ASSISTANT_HANDLERS: Record<string, (args: Args) => Record<string, unknown>> = {
  'assistant.threads.setStatus': (args) =>
    // An empty status clears it: allowed.
    answer(thread(args) ?? (typeof args.status === 'string' ? undefined : 'invalid_arguments')),
  'assistant.threads.setTitle': (args) =>
    answer(thread(args) ?? (text(args, 'title') === undefined ? 'invalid_arguments' : undefined)),
  'assistant.threads.setSuggestedPrompts': (args) => {
    const list = prompts(args);
    const valid =
      list !== undefined && list.length >= 1 && list.length <= 4 && list.every(isPrompt);
    const where = args.thread_ts === undefined ? channel(args) : thread(args);
    return answer(where ?? (valid ? undefined : 'invalid_arguments'));
  },
};
