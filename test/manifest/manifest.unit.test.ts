import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { stockVerdict } from '../../src/rules/stock.js';
import { COMMANDS } from '../../src/slack/listeners/commands/index.js';
import { LOOK_UP_STOCK_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/lookUpStock.js';
import { STOCK_SEARCH_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/searchStock.js';
import { stepOutputs } from '../../src/views/workflowStep.js';
import { makeBranch, makeItem } from '../helpers/builders.js';

const Manifest = z.object({
  display_information: z.object({ name: z.string().max(35), description: z.string().max(140) }),
  features: z.object({
    bot_user: z.object({ display_name: z.string().regex(/^[a-z0-9._-]{1,80}$/) }),
    slash_commands: z.array(
      z.object({
        command: z.string().regex(/^\/.{1,31}$/),
        description: z.string().max(2000),
        usage_hint: z.string().max(1000).optional(),
        url: z.string().optional(),
        should_escape: z.boolean().optional(),
      }),
    ),
    shortcuts: z.array(
      z.object({
        name: z.string().max(24),
        type: z.enum(['message', 'global']),
        callback_id: z.string().max(255),
        description: z.string().max(150),
      }),
    ),
  }),
  oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }),
  settings: z.object({
    interactivity: z.object({ is_enabled: z.boolean(), request_url: z.string().optional() }),
    socket_mode_enabled: z.boolean(),
  }),
});

/** Issue 16: App Home, the global shortcut, app_home_opened and the options load URL. */
const SearchParts = z.object({
  features: z.object({
    app_home: z.object({ home_tab_enabled: z.literal(true), messages_tab_enabled: z.boolean() }),
  }),
  settings: z.object({
    interactivity: z.object({ message_menu_options_url: z.string().optional() }),
    event_subscriptions: z.object({
      request_url: z.string().optional(),
      bot_events: z.array(z.string()),
    }),
  }),
});

const load = (path: string) => Manifest.parse(parse(readFileSync(path, 'utf8')));
const socket = load('slack-manifest.yml');
const http = load('manifest/http.yml');

describe.each([
  ['slack-manifest.yml (Socket Mode)', socket],
  ['manifest/http.yml (HTTP)', http],
])('%s', (_name, manifest) => {
  it('declares exactly the slash commands the code registers', () => {
    expect(manifest.features.slash_commands.map((c) => c.command).sort()).toEqual(
      [...COMMANDS].sort(),
    );
  });

  it('declares exactly the message shortcuts the code registers', () => {
    expect(
      manifest.features.shortcuts.filter((s) => s.type === 'message').map((s) => s.callback_id),
    ).toEqual([LOOK_UP_STOCK_CALLBACK_ID]);
    expect(
      manifest.features.shortcuts.find((s) => s.callback_id === 'stock_lookup_message')?.name,
    ).toBe('Look up stock');
  });

  it('enables interactivity (buttons and shortcuts) and asks for the minimal bot scopes', () => {
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    // commands: the slash commands and shortcuts; chat:write: Share to channel's fallback and
    // watch alerts, only where the app was invited (no chat:write.public: the app posts only
    // where it and the person are members); users:read: telling guests and externals apart;
    // usergroups:read: CONTACT_REVEAL groups; channels:read, groups:read, im:read, mpim:read:
    // conversations.members before posting where a person chose, and the events that end
    // watches; app_mentions:read, im:history, assistant:write: asking in words (mentions, direct
    // messages, the assistant surface's prompts, status and title). mcp:connect: Slackbot's
    // MCP client, over HTTP only (its own test below).
    const scopes = manifest.oauth_config.scopes.bot.filter((s) => s !== 'mcp:connect');
    expect([...scopes].sort()).toEqual(
      [
        'app_mentions:read',
        'assistant:write',
        'im:history',
        'channels:read',
        'chat:write',
        'commands',
        'groups:read',
        'im:read',
        'mpim:read',
        'usergroups:read',
        'users:read',
      ].sort(),
    );
  });
});

describe.each([
  ['slack-manifest.yml', 'socket'],
  ['manifest/http.yml', 'http'],
] as const)('%s: search and App Home', (path, transport) => {
  const parts = SearchParts.parse(parse(readFileSync(path, 'utf8')));
  const manifest = load(path);

  it('declares the global shortcut stock_search the code registers', () => {
    const global = manifest.features.shortcuts.filter((s) => s.type === 'global');
    expect(global.map((s) => s.callback_id)).toEqual([STOCK_SEARCH_CALLBACK_ID]);
    expect(global[0]?.name).toBe('Search stock');
  });

  it('enables the Home tab and subscribes to app_home_opened', () => {
    expect(parts.features.app_home.home_tab_enabled).toBe(true);
    expect(parts.settings.event_subscriptions.bot_events).toContain('app_home_opened');
  });

  it('has an options load URL and event URL over HTTP (Socket Mode needs neither)', () => {
    const urls = [
      parts.settings.interactivity.message_menu_options_url,
      parts.settings.event_subscriptions.request_url,
    ];
    for (const url of urls) {
      if (transport === 'http') expect(url).toMatch(/^https:\/\/.+\/slack\/events$/);
      else expect(url).toBeUndefined();
    }
  });
});

describe('the two manifests', () => {
  it('differ only in transport', () => {
    expect(socket.settings.socket_mode_enabled).toBe(true);
    expect(http.settings.socket_mode_enabled).toBe(false);
    expect(socket.features.slash_commands.every((c) => c.url === undefined)).toBe(true);
    for (const command of http.features.slash_commands) {
      expect(command.url).toMatch(/^https:\/\/.+\/slack\/events$/);
    }
    expect(http.settings.interactivity.request_url).toMatch(/^https:\/\/.+\/slack\/events$/);
    const strip = (m: typeof socket) => ({
      ...m,
      // The MCP server is HTTP's alone (its own test below).
      oauth_config: {
        scopes: { bot: m.oauth_config.scopes.bot.filter((s) => s !== 'mcp:connect') },
      },
      features: {
        ...m.features,
        slash_commands: m.features.slash_commands.map(({ url: _url, ...rest }) => rest),
      },
      settings: { interactivity: { is_enabled: m.settings.interactivity.is_enabled } },
    });
    expect(strip(http)).toEqual(strip(socket));
  });
});

/**
 * The MCP server for Slackbot's MCP client, as Slack's Slack-identity sample declares it: an
 * `mcp_servers` entry with its https URL and `auth_type: slack_identity_auth`, and the bot
 * scope `mcp:connect`. Only over HTTP: Slack's MCP client needs an HTTPS endpoint.
 */
const McpParts = z.object({
  mcp_servers: z
    .record(
      z.string().regex(/^[a-z0-9_-]{1,64}$/),
      z.object({ url: z.string(), auth_type: z.literal('slack_identity_auth') }),
    )
    .optional(),
  oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }),
});

describe('the MCP server for Slackbot', () => {
  const mcp = (path: string) => McpParts.parse(parse(readFileSync(path, 'utf8')));

  it('is declared in manifest/http.yml at /mcp, with Slack identity auth and mcp:connect', () => {
    const manifest = mcp('manifest/http.yml');
    const servers = Object.values(manifest.mcp_servers ?? {});
    expect(servers).toHaveLength(1);
    expect(servers[0]?.url).toMatch(/^https:\/\/.+\/mcp$/);
    expect(manifest.oauth_config.scopes.bot).toContain('mcp:connect');
  });

  it('is not declared in the Socket Mode manifest', () => {
    const manifest = mcp('slack-manifest.yml');
    expect(manifest.mcp_servers).toBeUndefined();
    expect(manifest.oauth_config.scopes.bot).not.toContain('mcp:connect');
  });
});

/** The Workflow Builder step: a custom function, which Slack accepts only from an org-ready app. */
const Parameter = z.object({
  type: z.enum(['string', 'integer', 'number', 'boolean', 'slack#/types/user_id']),
  title: z.string().min(1),
  description: z.string().min(1),
  is_required: z.boolean(),
});
const FunctionParts = z.object({
  functions: z.record(
    z.string().max(100),
    z.object({
      title: z.string().min(1).max(255),
      description: z.string().min(1),
      input_parameters: z.record(z.string(), Parameter),
      output_parameters: z.record(z.string(), Parameter),
    }),
  ),
  settings: z.object({
    org_deploy_enabled: z.literal(true),
    function_runtime: z.literal('remote'),
    event_subscriptions: z.object({ bot_events: z.array(z.string()) }),
  }),
});

describe.each(['slack-manifest.yml', 'manifest/http.yml'])('%s: the workflow step', (path) => {
  const parts = FunctionParts.parse(parse(readFileSync(path, 'utf8')));
  const step = parts.functions.lookup_stock;

  it('declares lookup_stock with its inputs and outputs, and subscribes to function_executed', () => {
    expect(step?.title).toBe('Look up stock');
    const inputs = step?.input_parameters ?? {};
    expect(Object.keys(inputs)).toEqual(['item_code', 'quantity', 'branch', 'requested_by']);
    expect(inputs.item_code).toMatchObject({ type: 'string', is_required: true });
    expect(inputs.quantity).toMatchObject({ type: 'integer', is_required: false });
    expect(inputs.branch).toMatchObject({ type: 'string', is_required: false });
    // The person a run is for (its place in the fair queue), never required.
    expect(inputs.requested_by).toMatchObject({ type: 'slack#/types/user_id', is_required: false });
    const outputs = step?.output_parameters ?? {};
    expect(Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.type]))).toEqual({
      available: 'number',
      on_order: 'number',
      can_supply: 'boolean',
      split_possible: 'boolean',
      description: 'string',
      summary: 'string',
    });
    expect(parts.settings.event_subscriptions.bot_events).toContain('function_executed');
  });

  it('returns every output in the type it declares, decimals and over-allocation included', () => {
    // 700.4 on hand, 34.5 allocated: 665.9 available, as cable in metres is counted.
    const cable = makeItem({
      code: 'CABLE-3',
      branches: [
        makeBranch({ id: 1, name: 'Perth', soh: 700.4, allocated: 34.5, onorder: 12.5 }),
        makeBranch({ id: 2, name: 'Sydney', soh: 2, allocated: 15, onorder: 0 }),
      ],
    });
    const declared = step?.output_parameters ?? {};
    const runs = [
      stepOutputs(stockVerdict(cable, { quantity: 600, branchWords: ['perth'] }), false),
      stepOutputs(stockVerdict(cable, { branchWords: ['sydney'] }), false),
      stepOutputs(stockVerdict(cable), false),
    ];
    expect(runs[0]?.available).toBeCloseTo(665.9);
    for (const outputs of runs) {
      expect(Object.keys(outputs).sort()).toEqual(Object.keys(declared).sort());
      for (const [name, value] of Object.entries(outputs)) {
        expect(matchesType(value, declared[name]?.type), `${name}: ${String(value)}`).toBe(true);
      }
    }
  });
});

/** Whether a value is what Slack accepts for a parameter of this type. */
function matchesType(value: unknown, type: string | undefined): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
    case 'slack#/types/user_id':
      return typeof value === 'string';
    default:
      return false;
  }
}

/** Asking in words: the Messages tab, the agent feature, and the events and scopes it needs. */
const WordsParts = z.object({
  features: z.object({
    app_home: z.object({
      messages_tab_enabled: z.literal(true),
      messages_tab_read_only_enabled: z.literal(false),
    }),
    agent_view: z.object({
      agent_description: z.string().min(1).max(1000),
      suggested_prompts: z
        .array(z.object({ title: z.string().min(1).max(75), message: z.string().min(1).max(1000) }))
        .min(1)
        .max(4),
    }),
  }),
  oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }),
  settings: z.object({ event_subscriptions: z.object({ bot_events: z.array(z.string()) }) }),
});

describe.each(['slack-manifest.yml', 'manifest/http.yml'])('%s: asking in words', (path) => {
  const parts = WordsParts.parse(parse(readFileSync(path, 'utf8')));

  it('opens the Messages tab for writing and declares the agent feature with prompts', () => {
    expect(parts.features.app_home.messages_tab_read_only_enabled).toBe(false);
    expect(parts.features.agent_view.agent_description).toMatch(/words/);
    expect(parts.features.agent_view.suggested_prompts.length).toBeGreaterThanOrEqual(2);
  });

  it('subscribes to mentions, direct messages and the assistant thread events, with their scopes', () => {
    expect(parts.settings.event_subscriptions.bot_events).toEqual(
      expect.arrayContaining([
        'app_mention',
        'message.im',
        'assistant_thread_started',
        'assistant_thread_context_changed',
      ]),
    );
    expect(parts.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['app_mentions:read', 'im:history', 'chat:write', 'assistant:write']),
    );
  });
});
