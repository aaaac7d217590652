/**
 * The one fake Slack Web API, shared by the console (src/console/fakeSlack.ts) and the tests'
 * fake Slack (test/helpers/slack/fakeSlack.ts): how a call is read off HTTP, and how it is
 * answered, the way Slack would, as a plain function of the call and the fake's
 * configuration. Slack answers platform errors with HTTP 200 and `{ok: false, error}`; only
 * rate limiting changes the status (429 + Retry-After).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { ASSISTANT_HANDLERS } from './assistantApi.js';

/** A user as users.info describes them; unset flags are false. */
export interface FakeUser {
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  is_bot?: boolean;
  deleted?: boolean;
  name?: string;
  /** Slack Connect: a user of another organisation. */
  is_stranger?: boolean;
  /** Their own workspace; the fake's team by default. */
  team_id?: string;
}

/** A conversation as conversations.info describes it; unset fields follow the id's prefix. */
export interface FakeChannel {
  name?: string;
  is_private?: boolean;
  is_im?: boolean;
  is_member?: boolean;
  /** conversations.members; unset: every known user and the bot. */
  members?: string[];
}

/** Who the fake workspace and bot are. */
export interface FakeIdentity {
  teamId: string;
  teamDomain: string;
  botId: string;
  botUserId: string;
  appId: string;
}

/** What the Web API needs from the running fake. */
export interface WebApiContext {
  botToken: string | undefined;
  appToken: string | undefined;
  users: Record<string, FakeUser>;
  /** usergroups.users.list: the members of a group, undefined for an unknown group. */
  groupMembers(id: string): readonly string[] | undefined;
  /** When undefined every channel exists; otherwise unknown ids get `channel_not_found`. */
  channels: Record<string, FakeChannel> | undefined;
  identity: FakeIdentity;
  failureFor(method: string): string | undefined;
  /** Issues a one-time Socket Mode URL (absent: no Socket Mode, as in the console). */
  openSocketUrl?(): string;
  /** A new, increasing message ts. */
  nextTs(): string;
  /**
   * Where chat.* calls go when the fake shows messages (the console's screen); absent, they
   * are answered as Slack would and only recorded.
   */
  chat?(method: ChatMethod, args: Args): Record<string, unknown>;
  /** A modal opened or updated, as answered (with its id and hash): the console shows it. */
  modal?(view: Record<string, unknown>): void;
}

export type ChatMethod = 'chat.postMessage' | 'chat.postEphemeral' | 'chat.update' | 'chat.delete';

/** The HTTP answer to one Web API call. */
interface WebApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

type Args = Record<string, unknown>;
type Handler = (args: Args, ctx: WebApiContext) => Record<string, unknown>;

/** Slack's error for a rate-limited call; the fake answers it with 429 and `Retry-After: 1`. */
const RATE_LIMITED = 'ratelimited';

const APP_TOKEN_METHODS = new Set(['apps.connections.open']);

/** Answers `method` called with `args` and `token` (from `Authorization: Bearer` or the body). */
export function answerWebApi(
  method: string,
  args: Args,
  token: string | undefined,
  ctx: WebApiContext,
): WebApiAnswer {
  const handler = HANDLERS[method];
  if (handler === undefined) return fail('unknown_method');
  const authError = checkToken(method, token, ctx);
  if (authError !== undefined) return fail(authError);
  const failure = ctx.failureFor(method);
  if (failure === RATE_LIMITED) {
    return { status: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: failure } };
  }
  if (failure !== undefined) return fail(failure);
  const body = handler(args, ctx);
  return { status: 200, headers: {}, body };
}

function fail(error: string): WebApiAnswer {
  return { status: 200, headers: {}, body: { ok: false, error } };
}

/**
 * apps.connections.open takes the app-level token (`xapp-`); everything else the bot token.
 * A configured token must match exactly; otherwise any token of the right kind is accepted.
 */
function checkToken(method: string, token: string | undefined, ctx: WebApiContext) {
  if (!token) return 'not_authed';
  // A workflow step's token (`xwfp-`, one per run, from the function_executed event) acts for
  // the bot; the fake cannot know it in advance, so any one is accepted.
  if (token.startsWith('xwfp-') && !APP_TOKEN_METHODS.has(method)) return undefined;
  const wantsAppToken = APP_TOKEN_METHODS.has(method);
  const expected = wantsAppToken ? ctx.appToken : ctx.botToken;
  const other = wantsAppToken ? ctx.botToken : ctx.appToken;
  if (expected !== undefined) {
    if (token === expected) return undefined;
    return token === other ? 'not_allowed_token_type' : 'invalid_auth';
  }
  const looksLikeAppToken = token.startsWith('xapp-');
  const looksLikeOtherToken = token.startsWith('xox');
  if (wantsAppToken ? looksLikeOtherToken : looksLikeAppToken) return 'not_allowed_token_type';
  return undefined;
}

function str(args: Args, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function error(code: string) {
  return { ok: false, error: code };
}

const HANDLERS: Record<string, Handler> = {
  'auth.test': (_args, { identity }) => ({
    ok: true,
    url: `https://${identity.teamDomain}.slack.com/`,
    team: 'Fake Workspace',
    user: 'erp-lookups',
    team_id: identity.teamId,
    user_id: identity.botUserId,
    bot_id: identity.botId,
    is_enterprise_install: false,
  }),

  'apps.connections.open': (_args, ctx) =>
    ctx.openSocketUrl ? { ok: true, url: ctx.openSocketUrl() } : error('not_allowed'),

  'chat.postMessage': (args, ctx) => {
    if (ctx.chat) return ctx.chat('chat.postMessage', args);
    const channel = str(args, 'channel');
    if (channel === undefined) return error('channel_not_found');
    if (!hasContent(args)) return error('no_text');
    const ts = ctx.nextTs();
    return { ok: true, channel, ts, message: botMessage(args, ts, ctx.identity) };
  },

  'chat.postEphemeral': (args, ctx) => {
    if (ctx.chat) return ctx.chat('chat.postEphemeral', args);
    if (str(args, 'channel') === undefined) return error('channel_not_found');
    if (str(args, 'user') === undefined) return error('user_not_in_channel');
    if (!hasContent(args)) return error('no_text');
    return { ok: true, message_ts: ctx.nextTs() };
  },

  'chat.update': (args, ctx) => {
    if (ctx.chat) return ctx.chat('chat.update', args);
    const channel = str(args, 'channel');
    const ts = str(args, 'ts');
    if (channel === undefined) return error('channel_not_found');
    if (ts === undefined) return error('message_not_found');
    const text = typeof args.text === 'string' ? args.text : '';
    return { ok: true, channel, ts, text, message: botMessage(args, ts, ctx.identity) };
  },

  'chat.delete': (args, ctx) => {
    if (ctx.chat) return ctx.chat('chat.delete', args);
    const channel = str(args, 'channel');
    const ts = str(args, 'ts');
    if (channel === undefined) return error('channel_not_found');
    if (ts === undefined) return error('message_not_found');
    return { ok: true, channel, ts };
  },

  'users.info': (args, ctx) => {
    const id = str(args, 'user');
    const user = id === undefined ? undefined : ctx.users[id];
    if (id === undefined || user === undefined) return error('user_not_found');
    return { ok: true, user: userObject(id, user, ctx.identity) };
  },

  'usergroups.users.list': (args, ctx) => {
    const id = str(args, 'usergroup');
    const users = id === undefined ? undefined : ctx.groupMembers(id);
    if (users === undefined) return error('no_such_subteam');
    return { ok: true, users: [...users] };
  },

  'conversations.info': (args, ctx) => {
    const id = str(args, 'channel');
    if (id === undefined) return error('channel_not_found');
    const known = ctx.channels === undefined ? {} : ctx.channels[id];
    if (known === undefined) return error('channel_not_found');
    return { ok: true, channel: channelObject(id, known) };
  },

  'conversations.members': (args, ctx) => {
    const id = str(args, 'channel');
    if (id === undefined) return error('channel_not_found');
    const known = ctx.channels === undefined ? {} : ctx.channels[id];
    if (known === undefined) return error('channel_not_found');
    const members = known.members ?? [...Object.keys(ctx.users), ctx.identity.botUserId];
    return { ok: true, members, response_metadata: { next_cursor: '' } };
  },
};

Object.assign(HANDLERS, ASSISTANT_HANDLERS);

/**
 * Workflow steps: functions.completeSuccess and functions.completeError end a run, checked the
 * way Slack checks them (an execution id; outputs an object, error a non-empty string).
 */
const isObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

Object.assign(HANDLERS, {
  'functions.completeSuccess': (args: Args) => {
    if (str(args, 'function_execution_id') === undefined) return error('invalid_arguments');
    if (!isObject(args.outputs)) return error('invalid_arguments');
    return { ok: true };
  },
  'functions.completeError': (args: Args) => {
    if (str(args, 'function_execution_id') === undefined) return error('invalid_arguments');
    if (str(args, 'error') === undefined) return error('invalid_arguments');
    return { ok: true };
  },
} satisfies Record<string, Handler>);

/**
 * Views: views.open, views.update and views.publish, checked the way Slack checks
 * them (trigger_id shape, view type, block count); every view gets an id and a fresh hash.
 */
let viewCounter = 0;
const TRIGGER_ID = /^\d+\.\d+\.[0-9a-f]+$/;

function viewArg(args: Args): Record<string, unknown> | undefined {
  const view = args.view;
  return typeof view === 'object' && view !== null ? (view as Record<string, unknown>) : undefined;
}

function viewAnswer(view: Record<string, unknown>, ctx: WebApiContext, id?: string) {
  viewCounter += 1;
  const blocks = Array.isArray(view.blocks) ? view.blocks : [];
  if (blocks.length > 100) return error('invalid_arguments');
  return {
    ok: true,
    view: {
      ...view,
      id: id ?? `V${String(viewCounter).padStart(8, '0')}`,
      team_id: ctx.identity.teamId,
      app_id: ctx.identity.appId,
      bot_id: ctx.identity.botId,
      hash: `${Date.now()}.${viewCounter}`,
      state: { values: {} },
    },
  };
}

Object.assign(HANDLERS, {
  'views.open': (args: Args, ctx: WebApiContext) => {
    const trigger = str(args, 'trigger_id');
    if (trigger === undefined || !TRIGGER_ID.test(trigger)) return error('invalid_trigger_id');
    const view = viewArg(args);
    if (view?.type !== 'modal') return error('invalid_arguments');
    return shownModal(viewAnswer(view, ctx), ctx);
  },
  'views.update': (args: Args, ctx: WebApiContext) => {
    const id = str(args, 'view_id') ?? str(args, 'external_id');
    const view = viewArg(args);
    if (id === undefined) return error('not_found');
    if (view?.type !== 'modal') return error('invalid_arguments');
    return shownModal(viewAnswer(view, ctx, id), ctx);
  },
  'views.publish': (args: Args, ctx: WebApiContext) => {
    if (str(args, 'user_id') === undefined) return error('invalid_arguments');
    const view = viewArg(args);
    if (view?.type !== 'home') return error('invalid_arguments');
    return viewAnswer(view, ctx);
  },
} satisfies Record<string, Handler>);

function shownModal(answer: Record<string, unknown>, ctx: WebApiContext) {
  const { view } = answer;
  if (answer.ok === true && typeof view === 'object' && view !== null) {
    ctx.modal?.(view as Record<string, unknown>);
  }
  return answer;
}

function hasContent(args: Args): boolean {
  return ['text', 'blocks', 'attachments', 'markdown_text'].some((key) => args[key] !== undefined);
}

function botMessage(args: Args, ts: string, identity: FakeIdentity) {
  return {
    type: 'message',
    subtype: 'bot_message',
    text: typeof args.text === 'string' ? args.text : '',
    user: identity.botUserId,
    bot_id: identity.botId,
    app_id: identity.appId,
    ts,
    ...(args.blocks === undefined ? {} : { blocks: args.blocks }),
  };
}

function userObject(id: string, user: FakeUser, identity: FakeIdentity) {
  const name = user.name ?? id.toLowerCase();
  return {
    id,
    team_id: user.team_id ?? identity.teamId,
    name,
    deleted: user.deleted ?? false,
    real_name: name,
    tz: 'Europe/London',
    is_admin: false,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: user.is_restricted ?? false,
    is_ultra_restricted: user.is_ultra_restricted ?? false,
    is_bot: user.is_bot ?? false,
    is_app_user: false,
    ...(user.is_stranger === undefined ? {} : { is_stranger: user.is_stranger }),
    updated: 1_700_000_000,
    profile: { real_name: name, display_name: name },
  };
}

/** Slack ids say what a conversation is: C public channel, G private (legacy), D direct message. */
function channelObject(id: string, known: FakeChannel) {
  const isIm = known.is_im ?? id.startsWith('D');
  const isPrivate = known.is_private ?? (id.startsWith('G') || isIm);
  return {
    id,
    name: known.name ?? (isIm ? undefined : `channel-${id.toLowerCase()}`),
    is_channel: !isIm && !isPrivate,
    is_group: id.startsWith('G'),
    is_im: isIm,
    is_private: isPrivate,
    is_archived: false,
    is_member: known.is_member ?? true,
    created: 1_600_000_000,
  };
}

// ─── HTTP ───────────────────────────────────────────────────────────────────────────────────

const JsonObject = z.record(z.string(), z.unknown());

/** The request body as text, refused past 2 MB (Slack's own limits are far below). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > 2_000_000) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * @slack/web-api sends form fields and JSON-encodes every non-primitive value (blocks,
 * attachments); some callers send JSON bodies instead. Both become one plain object here.
 */
export function parseWebApiRequest(
  req: IncomingMessage,
  raw: string,
): { args: Args; token: string | undefined } {
  const contentType = req.headers['content-type'] ?? '';
  const args: Args = {};
  if (contentType.includes('application/json')) {
    const parsed = JsonObject.safeParse(parseJson(raw));
    if (parsed.success) Object.assign(args, parsed.data);
  } else {
    for (const [key, value] of new URLSearchParams(raw)) args[key] = decodeField(value);
  }
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const bodyToken = typeof args.token === 'string' ? args.token : undefined;
  delete args.token;
  return { args, token: bearer ?? bodyToken };
}

/** A Web API call's arguments and token, read from its request. */
export async function readWebApiCall(
  req: IncomingMessage,
): Promise<{ args: Args; token: string | undefined }> {
  return parseWebApiRequest(req, await readBody(req));
}

function decodeField(value: string): unknown {
  if (!value.startsWith('[') && !value.startsWith('{')) return value;
  return parseJson(value) ?? value;
}

export function send(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown> | string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const json = typeof body !== 'string';
  res.writeHead(status, {
    'content-type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    ...headers,
  });
  res.end(json ? JSON.stringify(body) : body);
}

/** Message timestamps as Slack makes them: `seconds.micros`, unique and increasing. */
export function tsCounter(): () => string {
  const seconds = Math.floor(Date.now() / 1000);
  let counter = 0;
  return () => {
    counter += 1;
    return `${seconds}.${String(counter).padStart(6, '0')}`;
  };
}
