/**
 * A pretend Slack on 127.0.0.1 for the console: it receives what the app sends back.
 * - `POST /respond/:key`: the `response_url` of each command and click (Bolt's `respond()`);
 * - `POST /api/:method`: the Web API, for an App whose `clientOptions.slackApiUrl` points here.
 * It only parses and answers; what a message means for the screen is the sink's business.
 * The Web API is the same implementation the tests' fake Slack uses (webApi.ts), with the
 * console's one-person workspace and chat.* calls sent to the screen.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import type { AppLogger } from '../log/logger.js';
import type { ActivityTracker } from './activity.js';
import { CONSOLE, CONSOLE_IDENTITY } from './identity.js';
import { closeServer, listenOnLoopback } from './transport.js';
import {
  answerWebApi,
  type ChatMethod,
  readWebApiCall,
  send,
  tsCounter,
  type WebApiContext,
} from './webApi.js';

const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** Blocks arrive as an array in JSON bodies and as a JSON string in Web API form bodies. */
const blocksField = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}, z.array(z.unknown()));

export const RespondPayload = z.looseObject({
  text: z.string().optional(),
  blocks: blocksField.optional(),
  response_type: z.enum(['in_channel', 'ephemeral']).optional(),
  replace_original: flag.optional(),
  delete_original: flag.optional(),
  thread_ts: z.string().optional(),
});
export type RespondPayload = z.infer<typeof RespondPayload>;

const PostArgs = z.looseObject({
  channel: z.string().min(1),
  text: z.string().optional(),
  blocks: blocksField.optional(),
  user: z.string().optional(),
  ts: z.string().optional(),
  thread_ts: z.string().optional(),
});
export type PostArgs = z.infer<typeof PostArgs>;

export interface ShownMessage {
  text: string;
  blocks: unknown[];
}

/** What the console does with each thing the app sends. Errors use Slack's error codes. */
export interface SlackSink {
  respond(
    key: string,
    payload: RespondPayload,
  ): { ok: true } | { ok: false; status: number; error: string };
  post(args: PostArgs, ephemeral: boolean): { ts: string };
  update(args: PostArgs): boolean;
  remove(channel: string, ts: string): boolean;
  /** Something went to Slack that the console cannot show: say so rather than hide it. */
  note(text: string): void;
  /** A modal the app opened or updated (views.open, views.update). */
  modal(view: Record<string, unknown>): void;
}

type Json = Record<string, unknown>;

export class FakeSlackServer {
  private readonly server: Server;
  private base = 'http://127.0.0.1:0';

  constructor(
    private readonly sink: SlackSink,
    private readonly activity: ActivityTracker,
    private readonly logger: AppLogger,
  ) {
    this.server = createServer((request, response) => {
      const done = this.activity.begin();
      this.handle(request, response)
        .catch((error: unknown) => {
          this.logger.warn({ err: error }, 'console: could not handle a call to the fake Slack');
          if (!response.headersSent) send(response, 400, { ok: false, error: 'invalid_request' });
        })
        .finally(done);
    });
  }

  /** Listens on an ephemeral loopback port. */
  async start(): Promise<void> {
    this.base = await listenOnLoopback(this.server);
  }

  stop(): Promise<void> {
    return closeServer(this.server);
  }

  get baseUrl(): string {
    return this.base;
  }

  /** Ends with `/`, as WebClient expects of `slackApiUrl`. */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  responseUrl(key: string): string {
    return `${this.baseUrl}/respond/${key}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', this.baseUrl).pathname;
    if (request.method !== 'POST') return send(response, 405, 'method_not_allowed');
    const { args: body, token } = await readWebApiCall(request);
    const respondMatch = /^\/respond\/([\w-]+)$/.exec(path);
    if (respondMatch?.[1]) {
      const payload = RespondPayload.safeParse(body);
      if (!payload.success) return send(response, 400, 'invalid_payload');
      const outcome = this.sink.respond(respondMatch[1], payload.data);
      return outcome.ok ? send(response, 200, 'ok') : send(response, outcome.status, outcome.error);
    }
    const apiMatch = /^\/api\/([\w.]+)$/.exec(path);
    if (apiMatch?.[1]) {
      const answer = answerWebApi(apiMatch[1], body, token, this.webApi);
      if (answer.body.error === 'unknown_method') {
        this.sink.note(`the app called ${apiMatch[1]}, which the console does not simulate`);
      }
      return send(response, answer.status, answer.body, answer.headers);
    }
    return send(response, 404, 'not_found');
  }

  /** The console's workspace: one member, its bot, and a direct message between them. */
  private readonly webApi: WebApiContext = {
    botToken: undefined,
    appToken: undefined,
    users: {
      [CONSOLE.userId]: { name: CONSOLE.userName },
      [CONSOLE.botUserId]: { name: 'erp-lookups', is_bot: true },
    },
    // Every group the reveal policy may name has the console user in it.
    groupMembers: () => [CONSOLE.userId],
    channels: { [CONSOLE.channelId]: { name: CONSOLE.channelName, is_im: true } },
    identity: CONSOLE_IDENTITY,
    failureFor: () => undefined,
    nextTs: tsCounter(),
    chat: (method, body) => this.chat(method, body),
    modal: (view) => this.sink.modal(view),
  };

  private chat(method: ChatMethod, body: Json): Json {
    const args = PostArgs.safeParse(body);
    if (!args.success) return { ok: false, error: 'invalid_arguments' };
    const { channel } = args.data;
    if (method === 'chat.delete') {
      const ts = args.data.ts ?? '';
      return this.sink.remove(channel, ts)
        ? { ok: true, channel, ts }
        : { ok: false, error: 'message_not_found' };
    }
    if (args.data.text === undefined && args.data.blocks === undefined) {
      return { ok: false, error: 'no_text' };
    }
    if (method === 'chat.update') {
      return this.sink.update(args.data)
        ? { ok: true, channel, ts: args.data.ts, text: args.data.text ?? '' }
        : { ok: false, error: 'message_not_found' };
    }
    const ephemeral = method === 'chat.postEphemeral';
    const { ts } = this.sink.post(args.data, ephemeral);
    const message = { type: 'message', ts, text: args.data.text ?? '', blocks: args.data.blocks };
    return ephemeral ? { ok: true, message_ts: ts } : { ok: true, channel, ts, message };
  }
}
