import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { COMMANDS } from '../../src/slack/listeners/commands/index.js';
import { LOOK_UP_STOCK_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/lookUpStock.js';
import { STOCK_SEARCH_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/searchStock.js';

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
    // commands: the slash commands and shortcut; chat:write: Share to channel's fallback;
    // users:read: telling guests apart for Reveal; usergroups:read: CONTACT_REVEAL groups.
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual(
      ['chat:write', 'commands', 'usergroups:read', 'users:read'].sort(),
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
    expect(parts.settings.event_subscriptions.bot_events).toEqual(['app_home_opened']);
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
      features: {
        ...m.features,
        slash_commands: m.features.slash_commands.map(({ url: _url, ...rest }) => rest),
      },
      settings: { interactivity: { is_enabled: m.settings.interactivity.is_enabled } },
    });
    expect(strip(http)).toEqual(strip(socket));
  });
});
