/**
 * The request bodies Slack would send, built from what the user typed or pressed. Shapes
 * follow Slack's own examples (slash command form fields; a `block_actions` payload from a
 * button in a message), so Bolt routes them exactly as it routes the real ones.
 */
import { randomBytes } from 'node:crypto';
import { CONSOLE } from './identity.js';

interface SlashCommandBody {
  [key: string]: string;
  token: string;
  team_id: string;
  team_domain: string;
  channel_id: string;
  channel_name: string;
  user_id: string;
  user_name: string;
  command: string;
  text: string;
  api_app_id: string;
  is_enterprise_install: string;
  response_url: string;
  trigger_id: string;
}

let triggerCounter = 0;

/**
 * Like Slack's `13345224609.738474920.8088930838d88f008e0` (digits, digits, hex: the shape the
 * console's own views.open checks); single use, meaningless here.
 */
export function newTriggerId(): string {
  triggerCounter += 1;
  return `${Date.now()}${triggerCounter}.${TRIGGER_TEAM}.${randomBytes(12).toString('hex')}`;
}

/** The numeric middle part of a trigger id (Slack's is numeric; the team id is not). */
const TRIGGER_TEAM = '738474920';

/** Slack timestamps are "seconds.micro" strings, unique per channel. */
function actionTs(): string {
  return (Date.now() / 1000).toFixed(6);
}

export function slashCommandBody(
  command: string,
  text: string,
  responseUrl: string,
): SlashCommandBody {
  return {
    token: CONSOLE.verificationToken,
    team_id: CONSOLE.teamId,
    team_domain: CONSOLE.teamDomain,
    channel_id: CONSOLE.channelId,
    channel_name: CONSOLE.channelName,
    user_id: CONSOLE.userId,
    user_name: CONSOLE.userName,
    command,
    text,
    api_app_id: CONSOLE.appId,
    // Slack sends this one as the string 'true' or 'false', not a boolean.
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: newTriggerId(),
  };
}

interface PressedButton {
  actionId: string;
  blockId: string;
  label: string;
  value?: string;
}

interface SourceMessage {
  ts: string;
  ephemeral: boolean;
  text: string;
  blocks: unknown[];
}

export function blockActionsBody(
  button: PressedButton,
  message: SourceMessage,
  responseUrl: string,
): Record<string, unknown> {
  return {
    type: 'block_actions',
    user: consoleUser(),
    api_app_id: CONSOLE.appId,
    token: CONSOLE.verificationToken,
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: CONSOLE.channelId,
      is_ephemeral: message.ephemeral,
    },
    trigger_id: newTriggerId(),
    team: { id: CONSOLE.teamId, domain: CONSOLE.teamDomain },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: CONSOLE.channelId, name: CONSOLE.channelName },
    // Slack includes the source message only when it is not ephemeral.
    ...(message.ephemeral
      ? {}
      : {
          message: {
            type: 'message',
            bot_id: CONSOLE.botId,
            user: CONSOLE.botUserId,
            ts: message.ts,
            text: message.text,
            blocks: message.blocks,
          },
        }),
    state: { values: {} },
    response_url: responseUrl,
    actions: [
      {
        type: 'button',
        action_id: button.actionId,
        block_id: button.blockId,
        text: { type: 'plain_text', text: button.label, emoji: true },
        ...(button.value === undefined ? {} : { value: button.value }),
        action_ts: actionTs(),
      },
    ],
  };
}

/**
 * The message shortcut used on a message with this text, as Slack's `message_action` payload:
 * the message is someone else's, in the console's channel.
 */
export function messageActionBody(
  callbackId: string,
  text: string,
  responseUrl: string,
): Record<string, unknown> {
  const ts = actionTs();
  return {
    type: 'message_action',
    token: CONSOLE.verificationToken,
    callback_id: callbackId,
    trigger_id: newTriggerId(),
    response_url: responseUrl,
    action_ts: ts,
    message_ts: ts,
    team: { id: CONSOLE.teamId, domain: CONSOLE.teamDomain },
    channel: { id: CONSOLE.channelId, name: CONSOLE.channelName },
    user: { id: CONSOLE.userId, name: CONSOLE.userName, team_id: CONSOLE.teamId },
    message: { type: 'message', user: 'UCOLLEAGUE', ts, text },
    is_enterprise_install: false,
  };
}

/**
 * A sentence typed to the app in its Messages tab, as the Events API delivers it: a person's
 * plain message (`message.im`) in the console's direct message, in its `event_callback`.
 */
export function directMessageBody(text: string): Record<string, unknown> {
  const ts = actionTs();
  return {
    token: CONSOLE.verificationToken,
    team_id: CONSOLE.teamId,
    api_app_id: CONSOLE.appId,
    type: 'event_callback',
    event_id: `Ev${ts.replace('.', '')}`,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: 'message',
      channel: CONSOLE.channelId,
      channel_type: 'im',
      user: CONSOLE.userId,
      team: CONSOLE.teamId,
      text,
      ts,
      event_ts: ts,
    },
    authorizations: [
      {
        team_id: CONSOLE.teamId,
        user_id: CONSOLE.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
  };
}

/** The console's one person, as interaction payloads name the user. */
export function consoleUser() {
  return {
    id: CONSOLE.userId,
    username: CONSOLE.userName,
    name: CONSOLE.userName,
    team_id: CONSOLE.teamId,
  };
}
