/**
 * Every example the app teaches works: the commands in README.md, the help answers (with the
 * sandbox's own examples and with the defaults), the console's help, the manifests' usage
 * hints and the sandbox's list of things to try are read from those places (never copied
 * here) and each is run against the sandbox through Bolt's real HTTP receiver. Each must find
 * something: a card, or a list with rows, or shortcut lines without "Not found".
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { helpText } from '../../src/console/session.js';
import { contactHelp, stockHelp } from '../../src/views/help.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import { interactionForm, messageShortcutPayload, postToSlackApp } from '../helpers/slack/index.js';
import { ask, finalAnswer, type Message } from './helpers/conversation.js';

interface Example {
  /** `/stock`, `/contact` or `/shortcut` (the message shortcut on that text). */
  command: string;
  text: string;
  /** Where the app teaches it. */
  from: string;
}

const COMMAND = /\/(stock|contact|shortcut)\s+([^`"\n]+)/g;

/** `/stock WIDGET-9`-like commands in a text: after a backtick or a quote, or in a prose line. */
function commandsIn(text: string, from: string): Example[] {
  const found: Example[] = [];
  for (const match of text.matchAll(COMMAND)) {
    const [, name = '', rest = ''] = match;
    const example = rest.trim();
    // Placeholders (`/shortcut <message text>`, `/stock CODE`) are grammar, not examples.
    if (example === '' || /^<|^CODE\b|^words\b|…/.test(example)) continue;
    // Watches and the digest change a channel (a confirmation posted there, a row stored):
    // the watch tests try them; a bare `watch strap` is still a search and stays.
    if (/^(watches$|unwatch\b|digest\b|watch\s+\S+\s+(below|above)\b)/.test(example)) continue;
    found.push({ command: `/${name}`, text: example, from });
  }
  return found;
}

function readmeExamples(): Example[] {
  const readme = readFileSync('README.md', 'utf8');
  const spans = [...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
  const quoted = [...readme.matchAll(/--once "([^"]+)"( --shortcut)?/g)].map((m) =>
    m[2] ? `/shortcut ${m[1] ?? ''}` : (m[1] ?? ''),
  );
  return [...spans, ...quoted].flatMap((text) =>
    commandsIn(text, 'README').filter((e) => text.trim().startsWith(`${e.command} `)),
  );
}

function manifestExamples(): Example[] {
  return ['slack-manifest.yml', 'manifest/http.yml'].flatMap((file) => {
    const manifest = parse(readFileSync(file, 'utf8')) as {
      display_information: { long_description?: string };
      features: { slash_commands: Array<{ command: string; usage_hint?: string }> };
    };
    const hints = manifest.features.slash_commands.flatMap(({ command, usage_hint }) =>
      (usage_hint ?? '')
        .split('|')
        .map((hint) => hint.trim())
        // `[item code]` and the like are placeholders, written so nobody types them literally.
        .filter((hint) => hint !== '' && !hint.includes('['))
        .map((text) => ({ command, text, from: `${file} usage_hint` })),
    );
    // The app directory's description: "Type /stock WIDGET-9 to see …".
    const prose = [
      ...(manifest.display_information.long_description ?? '').matchAll(
        /(\/(?:stock|contact)) (.+?) to /g,
      ),
    ].map((m) => ({ command: m[1] ?? '', text: m[2] ?? '', from: `${file} long_description` }));
    return [...hints, ...prose];
  });
}

function helpExamples(run: RunningApp): Example[] {
  const sandbox = run.sandbox.examples();
  const messages = [stockHelp(sandbox), contactHelp(sandbox), stockHelp(), contactHelp()];
  return messages.flatMap((message) => {
    const spans = [...textOf(message).matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
    // `[item code]` and the like are placeholders, written so nobody types them literally.
    return spans.filter((span) => !span.includes('[')).flatMap((span) => commandsIn(span, 'help'));
  });
}

function consoleHelpExamples(): Example[] {
  const text = helpText(['/stock', '/contact']);
  // Examples there are separated by runs of spaces.
  return text.split(/\s{2,}|\n/).flatMap((part) => commandsIn(part, 'console help'));
}

function sandboxListExamples(run: RunningApp): Example[] {
  const e = run.sandbox.examples();
  const as = (command: string, texts: string[]) =>
    texts.map((text) => ({ command, text, from: 'npm run sandbox' }));
  return [
    ...as('/stock', [...e.itemCodes, ...e.bomItemCodes, ...e.itemSearches]),
    ...as('/contact', [...e.contactCodes, ...e.contactSearches]),
  ];
}

function unique(examples: Example[]): Example[] {
  const seen = new Map<string, Example>();
  for (const example of examples) {
    const key = `${example.command} ${example.text}`;
    if (!seen.has(key)) seen.set(key, example);
  }
  return [...seen.values()];
}

/** The message shortcut "Look up stock" used on a message with this text. */
async function shortcutAnswer(run: RunningApp, messageText: string): Promise<Message> {
  const responseUrl = run.slack.responseUrl();
  const payload = messageShortcutPayload({
    callbackId: 'stock_lookup_message',
    messageText,
    responseUrl,
  });
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
  });
  expect(reply.status).toBe(200);
  // Past a working line a busy machine may post first, to the answer.
  return finalAnswer(run, responseUrl);
}

/** What "found something" looks like for each kind of answer. */
function expectFound(example: Example, message: Message): void {
  const text = textOf(message);
  const labels = buttonsOf(message).map((b) => b.text);
  const what = `${example.command} ${example.text} (from ${example.from}): ${text.slice(0, 300)}`;
  if (example.text === 'help') {
    expect(text, what).toContain(`${example.command}:`);
    return;
  }
  if (example.command === '/stock' && example.text === 'categories') {
    // At least one category with the id a `category:N` example can use.
    expect(text, what).toMatch(/category:\d+`\s+·\s+[1-9][\d,]* (items?|so far)/);
    return;
  }
  if (example.command === '/stock' && example.text === 'suppliers') {
    // The suppliers the index learned from the items it holds, by name.
    expect(text, what).toMatch(/^Suppliers: \S/);
    return;
  }
  if (example.command === '/stock' && /\bbuild \d/.test(example.text)) {
    // A yes or no from the bill of materials (a long one says how far it has checked).
    expect(text, what).toMatch(/^(Yes|No)\b/);
    return;
  }
  if (example.command === '/stock' && example.text === 'demand') {
    expect(text, what).toMatch(/^Unmet demand/);
    return;
  }
  // `/stock A, B` answers as the message shortcut does: one line a code.
  if (
    example.command === '/shortcut' ||
    (example.command === '/stock' && example.text.includes(','))
  ) {
    expect(labels, what).toContain('View');
    expect(text, what).not.toContain('Not found');
    return;
  }
  const card = labels.includes('Share to channel');
  const list = /\*(Items|Contacts) matching\*/.test(text) && labels.includes('View');
  expect(card || list, what).toBe(true);
  expect(text, what).not.toMatch(/Nothing found|No (items|contacts) match|No (item|contact) has/);
}

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});
afterAll(async () => {
  await run?.stop();
});

describe('every example the app teaches finds something in the sandbox', () => {
  it('extracts examples from each place that teaches them', () => {
    expect(readmeExamples().length).toBeGreaterThanOrEqual(15);
    expect(readmeExamples().some((e) => e.command === '/shortcut')).toBe(true);
    expect(manifestExamples().filter((e) => e.from.endsWith('usage_hint'))).toHaveLength(4);
    expect(manifestExamples().filter((e) => e.from.endsWith('long_description'))).toHaveLength(6);
    expect(helpExamples(run).length).toBeGreaterThanOrEqual(10);
    expect(consoleHelpExamples().length).toBeGreaterThanOrEqual(4);
  });

  it('id: examples use ids that exist in the sandbox', () => {
    const ids = unique([...readmeExamples(), ...manifestExamples(), ...helpExamples(run)])
      .map((e) => /^(?:id:|#)(\d+)$/.exec(e.text)?.[1])
      .filter((id): id is string => id !== undefined);
    expect(ids.length).toBeGreaterThan(0);
    const itemIds = new Set(run.sandbox.data.items.map((i) => String(i.record.id)));
    const contactIds = new Set(run.sandbox.data.contacts.map((c) => String(c.record.clientid)));
    for (const id of ids) {
      expect(itemIds.has(id) && contactIds.has(id), `id ${id}`).toBe(true);
    }
  });

  it('runs each one through the app', { timeout: 180_000 }, async () => {
    const examples = unique([
      ...readmeExamples(),
      ...manifestExamples(),
      ...helpExamples(run),
      ...consoleHelpExamples(),
      ...sandboxListExamples(run),
    ]);
    expect(examples.length).toBeGreaterThan(30);

    for (const example of examples) {
      const answer =
        example.command === '/shortcut'
          ? await shortcutAnswer(run, example.text)
          : await ask(run, example.command, example.text);
      expectFound(example, answer);
    }
  });
});
