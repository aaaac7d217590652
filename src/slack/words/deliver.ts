/**
 * A sentence's answer delivered where it was asked, within the product's timing: an answer
 * ready within about 2 s is posted at once; a slower one is preceded by ONE short working line
 * (replaced by the answer where Slack allows it: a message the app posted, not an ephemeral
 * one). In the assistant panel the status line says it instead (see assistant.ts).
 */
import type { WebClient } from '@slack/web-api';
import type { ErpEndpoint } from '../../erp/errors.js';
import { outgoing } from '../../views/format.js';
import type { SlackMessage } from '../../views/message.js';
import type { WorkSubject } from '../../views/progress.js';
import type { Reading } from '../../words/reading.js';
import { workingLine } from '../answers.js';
import { quietly, within } from '../delivery.js';
import type { ListenerDeps } from '../deps.js';
import type { Actor } from '../payloads.js';
import type { WordsReply } from './answer.js';

type ChatApi = Pick<WebClient['chat'], 'postMessage' | 'postEphemeral' | 'update'>;

/** Where the sentence was asked: the conversation, the thread replies go in, and the asker. */
interface Conversation {
  chat: ChatApi;
  channel: string;
  /** Replies go in this thread; undefined: in the conversation itself (a direct message). */
  threadTs: string | undefined;
  user: string;
}

export async function deliverWords(
  deps: Pick<ListenerDeps, 'logger' | 'timing' | 'lookup'>,
  where: Conversation,
  answer: Promise<WordsReply>,
  options: { working?: () => SlackMessage; workingInPublic: boolean },
): Promise<void> {
  const quick = await within(answer, deps.timing.workingAfterMs);
  let workingTs: string | undefined;
  if (!quick.done && options.working) {
    const working = options.working();
    if (options.workingInPublic) workingTs = await post(deps, where, working);
    else await postPrivately(deps, where, working);
  }
  const reply = quick.done ? quick.value : await answer;
  if (reply.reply) {
    if (workingTs !== undefined) await update(deps, where, workingTs, reply.reply);
    else await post(deps, where, reply.reply);
  }
  if (reply.askerOnly) await postPrivately(deps, where, reply.askerOnly);
}

/** The working line's subject and queue, from what the sentence asks. */
export function wordsWorkingLine(
  deps: Pick<ListenerDeps, 'lookup'>,
  reading: Reading,
  actor: Actor,
): SlackMessage {
  const request = reading.kind === 'request' ? reading.request : undefined;
  let subject: WorkSubject = { kind: 'search', noun: 'item' };
  let endpoint: ErpEndpoint = 'searchItems';
  if (request?.kind === 'item') {
    subject = { kind: 'record', noun: 'item', ref: { code: request.code } };
    endpoint = 'getItem';
  } else if (request?.kind === 'codes') {
    subject = { kind: 'codes', count: Math.min(request.codes.length, 5) };
    endpoint = 'getItem';
  } else if (request?.kind === 'contact') {
    subject =
      'code' in request.account
        ? { kind: 'record', noun: 'contact', ref: { code: request.account.code } }
        : { kind: 'search', noun: 'contact' };
    endpoint = 'code' in request.account ? 'getContact' : 'searchContact';
  }
  return workingLine(deps, subject, endpoint, actor);
}

/** The message in the conversation, in the thread when there is one. */
function inThread(where: Conversation, message: SlackMessage) {
  return {
    channel: where.channel,
    ...outgoing(message),
    ...(where.threadTs === undefined ? {} : { thread_ts: where.threadTs }),
  };
}

async function post(
  deps: Pick<ListenerDeps, 'logger'>,
  where: Conversation,
  message: SlackMessage,
): Promise<string | undefined> {
  const posted = await quietly(
    deps.logger,
    () => where.chat.postMessage(inThread(where, message)),
    'could not post an answer in words',
  );
  return typeof posted?.ts === 'string' ? posted.ts : undefined;
}

async function postPrivately(
  deps: Pick<ListenerDeps, 'logger'>,
  where: Conversation,
  message: SlackMessage,
): Promise<void> {
  await quietly(
    deps.logger,
    () => where.chat.postEphemeral({ ...inThread(where, message), user: where.user }),
    'could not send the asker their private answer in words',
  );
}

async function update(
  deps: Pick<ListenerDeps, 'logger'>,
  where: Conversation,
  ts: string,
  message: SlackMessage,
): Promise<void> {
  const replaced = await quietly(
    deps.logger,
    async () => {
      await where.chat.update({
        channel: where.channel,
        ts,
        ...outgoing(message),
      });
      return true;
    },
    'could not replace the working line',
  );
  if (!replaced) await post(deps, where, message);
}
