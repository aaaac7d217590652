/**
 * Builders for the requests Slack sends to an app: slash commands, block_actions clicks,
 * message shortcuts, and the Socket Mode envelopes around them.
 *
 * Each builder starts from Slack's own published example (copied in `./fixtures/`, see
 * SOURCES.md) and overrides only what a test cares about, so field names, nesting and
 * encodings stay exactly Slack's. All builders default to the same workspace, user and channel
 * (`SLACK_DEFAULTS`, taken from Slack's slash-command example) so that the person who runs
 * `/stock` is the person who clicks the button.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

type JsonObject = Record<string, unknown>;

function jsonFixture(name: string): JsonObject {
  const parsed: unknown = JSON.parse(fixture(name));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`fixture ${name} is not a JSON object`);
  }
  return parsed as JsonObject;
}

/** Slack's slash-command example, parsed. The docs print one pair per line; Slack sends one line. */
const slashExample = new URLSearchParams(
  fixture('slash_command_form.txt').replace(/\s*\n\s*/g, ''),
);

function exampleField(name: string): string {
  const value = slashExample.get(name);
  if (value === null) throw new Error(`slash_command_form.txt has no ${name}`);
  return value;
}

/** The workspace, user, channel and app every builder uses unless told otherwise. */
export const SLACK_DEFAULTS = {
  teamId: exampleField('team_id'),
  teamDomain: exampleField('team_domain'),
  userId: exampleField('user_id'),
  userName: exampleField('user_name'),
  channelId: exampleField('channel_id'),
  channelName: exampleField('channel_name'),
  apiAppId: exampleField('api_app_id'),
  verificationToken: exampleField('token'),
  /** The app's bot, as the fake's auth.test reports it. */
  botId: 'B0FAKEBOT',
  botUserId: 'U0FAKEBOT',
} as const;

/** A fresh trigger_id in Slack's `digits.digits.hex` shape. */
export function newTriggerId(): string {
  const a = Math.floor(Math.random() * 1e12);
  const b = Math.floor(Math.random() * 1e12);
  return `${a}.${b}.${randomBytes(16).toString('hex')}`;
}

/** A Slack timestamp (`seconds.micros`) for now, like `action_ts`. */
export function slackTsNow(): string {
  const micros = Math.floor(performance.timeOrigin * 1000 + performance.now() * 1000);
  return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
}

/**
 * Fields of a slash command. `command`, `text` and `response_url` are required; the rest
 * default to `SLACK_DEFAULTS`. `enterprise_id`/`enterprise_name` are sent only when given:
 * Slack includes them only for workspaces in an Enterprise org.
 */
export interface SlashCommandFields {
  command: string;
  text: string;
  response_url: string;
  user_id?: string;
  user_name?: string;
  channel_id?: string;
  channel_name?: string;
  team_id?: string;
  team_domain?: string;
  enterprise_id?: string;
  enterprise_name?: string;
  trigger_id?: string;
  api_app_id?: string;
  token?: string;
  /** Bolt's type: Slack sends the string `'true'`, never a boolean. */
  is_enterprise_install?: 'true' | 'false';
}

/**
 * A slash command as a plain object of strings, in Slack's field order. This is the
 * `payload` of a Socket Mode `slash_commands` envelope; over HTTP use `slashCommandForm`.
 */
export function slashCommandPayload(fields: SlashCommandFields): Record<string, string> {
  const ordered: Array<[string, string | undefined]> = [
    ['token', fields.token ?? SLACK_DEFAULTS.verificationToken],
    ['team_id', fields.team_id ?? SLACK_DEFAULTS.teamId],
    ['team_domain', fields.team_domain ?? SLACK_DEFAULTS.teamDomain],
    ['enterprise_id', fields.enterprise_id],
    ['enterprise_name', fields.enterprise_name],
    ['channel_id', fields.channel_id ?? SLACK_DEFAULTS.channelId],
    ['channel_name', fields.channel_name ?? SLACK_DEFAULTS.channelName],
    ['user_id', fields.user_id ?? SLACK_DEFAULTS.userId],
    ['user_name', fields.user_name ?? SLACK_DEFAULTS.userName],
    ['command', fields.command],
    ['text', fields.text],
    ['response_url', fields.response_url],
    ['trigger_id', fields.trigger_id ?? newTriggerId()],
    ['api_app_id', fields.api_app_id ?? SLACK_DEFAULTS.apiAppId],
    ['is_enterprise_install', fields.is_enterprise_install],
  ];
  const payload: Record<string, string> = {};
  for (const [key, value] of ordered) {
    if (value !== undefined) payload[key] = value;
  }
  return payload;
}

/**
 * A slash command body exactly as Slack POSTs it: `application/x-www-form-urlencoded`, spaces
 * as `+`, `/` and `:` percent-encoded (as in Slack's signing example).
 */
export function slashCommandForm(fields: SlashCommandFields): string {
  return new URLSearchParams(slashCommandPayload(fields)).toString();
}

/** What a test can set on a button click. */
export interface BlockActionsOptions {
  actionId: string;
  value: string;
  responseUrl: string;
  userId?: string;
  userName?: string;
  teamId?: string;
  /** The presser's own workspace; `teamId` unless set (Slack Connect: another one). */
  userTeamId?: string;
  channelId?: string;
  channelName?: string;
  /**
   * Whether the clicked message is ephemeral; default `true` (this app replies ephemerally).
   * Slack sends no `message` object for clicks in ephemeral messages, so `messageBlocks` and
   * `messageText` need `isEphemeral: false`.
   */
  isEphemeral?: boolean;
  messageTs?: string;
  /** The clicked message is a reply in this thread. */
  threadTs?: string;
  messageBlocks?: unknown[];
  messageText?: string;
  blockId?: string;
  buttonText?: string;
  triggerId?: string;
}

/**
 * A `block_actions` payload for a button in a Block Kit message, built on Slack's example.
 * Slack's example sits in a legacy attachment (`container.type: "message_attachment"`); a
 * Block Kit message gives `{type: "message", message_ts, channel_id, is_ephemeral}` instead.
 */
export function blockActionsPayload(o: BlockActionsOptions): JsonObject {
  const example = jsonFixture('block_actions_message.json');
  const isEphemeral = o.isEphemeral ?? true;
  if (isEphemeral && (o.messageBlocks !== undefined || o.messageText !== undefined)) {
    throw new Error(
      'Slack sends no message for clicks in ephemeral messages: set isEphemeral false',
    );
  }
  const teamId = o.teamId ?? SLACK_DEFAULTS.teamId;
  const channelId = o.channelId ?? SLACK_DEFAULTS.channelId;
  const messageTs = o.messageTs ?? slackTsNow();
  const userName = o.userName ?? SLACK_DEFAULTS.userName;
  const payload: JsonObject = {
    type: 'block_actions',
    team: { id: teamId, domain: SLACK_DEFAULTS.teamDomain },
    user: {
      id: o.userId ?? SLACK_DEFAULTS.userId,
      username: userName,
      name: userName,
      team_id: o.userTeamId ?? teamId,
    },
    api_app_id: SLACK_DEFAULTS.apiAppId,
    token: example.token,
    container: {
      type: 'message',
      message_ts: messageTs,
      channel_id: channelId,
      is_ephemeral: isEphemeral,
      ...(o.threadTs === undefined ? {} : { thread_ts: o.threadTs }),
    },
    trigger_id: o.triggerId ?? newTriggerId(),
    channel: { id: channelId, name: o.channelName ?? SLACK_DEFAULTS.channelName },
    response_url: o.responseUrl,
    actions: [
      {
        action_id: o.actionId,
        block_id: o.blockId ?? 'actions',
        text: { type: 'plain_text', text: o.buttonText ?? 'View', emoji: true },
        value: o.value,
        type: 'button',
        action_ts: slackTsNow(),
      },
    ],
  };
  if (!isEphemeral) {
    payload.message = {
      type: 'message',
      user: SLACK_DEFAULTS.botUserId,
      bot_id: SLACK_DEFAULTS.botId,
      ts: messageTs,
      ...(o.threadTs === undefined ? {} : { thread_ts: o.threadTs }),
      text: o.messageText ?? '',
      ...(o.messageBlocks === undefined ? {} : { blocks: o.messageBlocks }),
    };
  }
  return payload;
}

/** What a test can set on a message shortcut. */
export interface MessageShortcutOptions {
  callbackId: string;
  messageText: string;
  responseUrl: string;
  userId?: string;
  userName?: string;
  teamId?: string;
  channelId?: string;
  channelName?: string;
  /** Author of the message the shortcut was used on. */
  messageUser?: string;
  messageTs?: string;
  /** The message is a reply in this thread (Slack sends the parent's ts). */
  threadTs?: string;
  triggerId?: string;
}

/**
 * A message shortcut (`type: "message_action"`) payload built on Slack's example, plus the
 * `message_ts` and `action_ts` real payloads carry (Bolt's type calls them undocumented).
 */
export function messageShortcutPayload(o: MessageShortcutOptions): JsonObject {
  const example = jsonFixture('message_action_shortcut.json');
  const teamId = o.teamId ?? SLACK_DEFAULTS.teamId;
  const messageTs = o.messageTs ?? slackTsNow();
  return {
    token: example.token,
    callback_id: o.callbackId,
    type: 'message_action',
    trigger_id: o.triggerId ?? newTriggerId(),
    response_url: o.responseUrl,
    team: { id: teamId, domain: SLACK_DEFAULTS.teamDomain },
    channel: {
      id: o.channelId ?? SLACK_DEFAULTS.channelId,
      name: o.channelName ?? SLACK_DEFAULTS.channelName,
    },
    user: {
      id: o.userId ?? SLACK_DEFAULTS.userId,
      name: o.userName ?? SLACK_DEFAULTS.userName,
      team_id: teamId,
    },
    message: {
      type: 'message',
      user: o.messageUser ?? 'U0MJRG1AL',
      ts: messageTs,
      text: o.messageText,
      ...(o.threadTs === undefined ? {} : { thread_ts: o.threadTs }),
    },
    message_ts: messageTs,
    action_ts: slackTsNow(),
  };
}

/** An interaction payload as Slack POSTs it over HTTP: one form field, `payload=<JSON>`. */
export function interactionForm(payload: object): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** The three Socket Mode envelope types Slack sends. */
export type SocketEnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

/** A Socket Mode envelope, as in Slack's example. */
export interface SocketEnvelope {
  envelope_id: string;
  type: SocketEnvelopeType;
  accepts_response_payload: boolean;
  payload: object;
}

/**
 * Wraps a payload in a Socket Mode envelope with a fresh `envelope_id`. Slack sets
 * `accepts_response_payload` true for commands and interactions and false for events.
 */
export function socketEnvelope(type: SocketEnvelopeType, payload: object): SocketEnvelope {
  return {
    envelope_id: randomUUID(),
    type,
    accepts_response_payload: type !== 'events_api',
    payload,
  };
}
