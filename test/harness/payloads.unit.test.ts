import { describe, expect, it } from 'vitest';
import {
  blockActionsPayload,
  interactionForm,
  messageShortcutPayload,
  SLACK_DEFAULTS,
  slashCommandForm,
  slashCommandPayload,
  socketEnvelope,
} from '../helpers/slack/payloads.js';

const RESPONSE_URL = 'https://hooks.slack.com/commands/T0001/1/abc';

describe('slashCommandForm', () => {
  it("encodes like Slack: Slack's field order, + for spaces, / and : escaped", () => {
    const form = slashCommandForm({
      command: '/stock',
      text: 'WIDGET-9 blue',
      response_url: RESPONSE_URL,
      trigger_id: '1.2.abc',
    });
    expect(form).toBe(
      'token=gIkuvaNzQIHg97ATvDxqgjtO&team_id=T0001&team_domain=example&channel_id=C2147483705' +
        '&channel_name=test&user_id=U2147483697&user_name=Steve&command=%2Fstock&text=WIDGET-9+blue' +
        '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT0001%2F1%2Fabc&trigger_id=1.2.abc' +
        '&api_app_id=A123456',
    );
  });

  it('applies overrides and sends enterprise fields only when given', () => {
    const fields = new URLSearchParams(
      slashCommandForm({
        command: '/contact',
        text: 'acme & co',
        response_url: RESPONSE_URL,
        user_id: 'U999',
        channel_id: 'D123',
        enterprise_id: 'E1',
      }),
    );
    expect(fields.get('user_id')).toBe('U999');
    expect(fields.get('channel_id')).toBe('D123');
    expect(fields.get('text')).toBe('acme & co');
    expect(fields.get('enterprise_id')).toBe('E1');
    expect(
      new URLSearchParams(
        slashCommandForm({ command: '/x', text: '', response_url: RESPONSE_URL }),
      ).has('enterprise_id'),
    ).toBe(false);
  });

  it('gives the same fields as an object for Socket Mode', () => {
    const payload = slashCommandPayload({
      command: '/stock',
      text: 'a b',
      response_url: RESPONSE_URL,
    });
    expect(payload).toMatchObject({
      command: '/stock',
      text: 'a b',
      team_id: SLACK_DEFAULTS.teamId,
    });
    expect(payload.trigger_id).toMatch(/^\d+\.\d+\.[0-9a-f]{32}$/);
  });
});

describe('blockActionsPayload', () => {
  it('describes a button click in an ephemeral Block Kit message, without the message', () => {
    const payload = blockActionsPayload({
      actionId: 'stock_refresh',
      value: '{"v":1}',
      responseUrl: RESPONSE_URL,
    });
    expect(payload).toMatchObject({
      type: 'block_actions',
      user: { id: SLACK_DEFAULTS.userId, team_id: SLACK_DEFAULTS.teamId },
      team: { id: SLACK_DEFAULTS.teamId },
      container: { type: 'message', channel_id: SLACK_DEFAULTS.channelId, is_ephemeral: true },
      channel: { id: SLACK_DEFAULTS.channelId },
      response_url: RESPONSE_URL,
      actions: [{ type: 'button', action_id: 'stock_refresh', value: '{"v":1}' }],
    });
    expect(payload).not.toHaveProperty('message');
  });

  it('carries the source message of a public message, with its blocks', () => {
    const blocks = [{ type: 'divider' }];
    const payload = blockActionsPayload({
      actionId: 'a',
      value: 'v',
      responseUrl: RESPONSE_URL,
      isEphemeral: false,
      messageTs: '111.222',
      messageBlocks: blocks,
    });
    expect(payload).toMatchObject({
      container: { message_ts: '111.222', is_ephemeral: false },
      message: { ts: '111.222', blocks },
    });
  });

  it('refuses message blocks for an ephemeral message, which Slack never sends', () => {
    expect(() =>
      blockActionsPayload({
        actionId: 'a',
        value: 'v',
        responseUrl: RESPONSE_URL,
        messageBlocks: [],
      }),
    ).toThrow(/ephemeral/);
  });
});

describe('messageShortcutPayload', () => {
  it("follows Slack's message_action example with the test's message", () => {
    const payload = messageShortcutPayload({
      callbackId: 'stock_lookup_message',
      messageText: 'need WIDGET-9 and BOLT-1',
      responseUrl: RESPONSE_URL,
      channelId: 'C42',
    });
    expect(payload).toMatchObject({
      type: 'message_action',
      callback_id: 'stock_lookup_message',
      response_url: RESPONSE_URL,
      channel: { id: 'C42' },
      user: { id: SLACK_DEFAULTS.userId },
      message: { type: 'message', text: 'need WIDGET-9 and BOLT-1' },
    });
    expect(payload.message_ts).toBe((payload.message as { ts: string }).ts);
  });
});

describe('interactionForm and socketEnvelope', () => {
  it('puts the JSON payload in a single form field', () => {
    const payload = { type: 'block_actions', text: 'a&b=c d' };
    const form = interactionForm(payload);
    expect(form.startsWith('payload=')).toBe(true);
    expect(JSON.parse(new URLSearchParams(form).get('payload') ?? '')).toEqual(payload);
  });

  it('wraps payloads like Slack, accepting a response payload except for events', () => {
    const command = socketEnvelope('slash_commands', { command: '/stock' });
    expect(command).toMatchObject({
      type: 'slash_commands',
      accepts_response_payload: true,
      payload: { command: '/stock' },
    });
    expect(command.envelope_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(socketEnvelope('events_api', {}).accepts_response_payload).toBe(false);
    expect(socketEnvelope('interactive', {}).envelope_id).not.toBe(command.envelope_id);
  });
});
