/**
 * Every pattern over outside text is linear: a message anyone can post, a command anyone can
 * type, a field the ERP returns. Two item-code patterns used to backtrack quadratically (a
 * 39,000-character `WIDGET-9 A-----…-1` with "Look up stock" held the event loop for
 * seconds, so a `/healthz` sent meanwhile waited too).
 *
 * Linear is checked as a ratio, not against the clock: each function runs on each shape at
 * 5,000 and at 40,000 characters. Eight times the text costs a linear function about eight
 * times the work and a quadratic one sixty-four times, whatever the machine's speed or load.
 * (Both lengths are above the 3,000-character cuts, so both take the same path.)
 */
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractItemCodes, looksLikeItemCode, MAX_MESSAGE_TEXT } from '../../src/slack/codes.js';
import { sanitizeInput, stripSlackMarkup } from '../../src/slack/input.js';
import { parseContactCommand, parseStockCommand } from '../../src/slack/parser.js';
import { truncate, truncateAtWord } from '../../src/views/blocks.js';
import {
  codeSpan,
  escapeMrkdwn,
  escapeTruncated,
  oneLine,
  oneLineAtWord,
  statusLabel,
} from '../../src/views/format.js';
import { redactEmail, redactPhone } from '../../src/views/redact.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { interactionForm, messageShortcutPayload, postToSlackApp } from '../helpers/slack/index.js';
import { failOnEscapedRejections } from './helpers.js';

const LENGTH = 40_000;
const SMALL = 5_000;
/** Eight times the text: linear work grows about 8x, quadratic 64x; noise stays below 24x. */
const MAX_GROWTH = 24;

/** Text functions that see Slack or ERP text, each on any string. */
const TEXT_FUNCTIONS: Record<string, (text: string) => unknown> = {
  extractItemCodes: (text) => extractItemCodes(text),
  sanitizeInput: (text) => sanitizeInput(text, LENGTH),
  stripSlackMarkup: (text) => stripSlackMarkup(text, { bareLinks: 'drop' }),
  parseStockCommand: (text) => parseStockCommand(text),
  parseContactCommand: (text) => parseContactCommand(text),
  escapeMrkdwn: (text) => escapeMrkdwn(text),
  escapeTruncated: (text) => escapeTruncated(text, 3000),
  oneLine: (text) => oneLine(text, 3000),
  oneLineAtWord: (text) => oneLineAtWord(text, 3000),
  codeSpan: (text) => codeSpan(text, 3000),
  statusLabel: (text) => statusLabel(text, 'Disabled', 3000),
  // Cut just before the end, so that the cut text is nearly the whole input.
  truncateAtWord: (text) => truncateAtWord(text, text.length - 4),
  redactEmail: (text) => redactEmail(text),
  redactPhone: (text) => redactPhone(text),
};

/** A long run of one repeated unit between a head and a tail: the classic backtracking shape. */
const run = (head: string, unit: string, tail: string) => (length: number) =>
  head + unit.repeat(Math.ceil((length - head.length - tail.length) / unit.length)) + tail;

const ADVERSARIAL: Record<string, (length: number) => string> = {
  'a code, then a dash run ending in a digit': run('WIDGET-9 A', '-', '1'),
  'a dash run inside one word': run('A', '-', ''),
  'an emoji that never closes': run(':', 'a', ''),
  'colons and letters': run('', ':a', ''),
  'an emoji name of digits then letters': run(':', '0a', ''),
  'punctuation runs': run('A', '.,;', '1'),
  'spaces before the end': run('a', ' ', 'x'),
  'spaces before the last words': run('a', ' ', 'x yyyy'),
  'spaces, commas and dots before a word': run('a', ' ,.', 'x'),
  'markup that never closes': run('<', 'a', ''),
  'nested markup openers': run('', '<', 'a>'),
  entities: run('', '&amp;', ''),
  'quote markers': run('', '\n>', ''),
  'tabs and line breaks': run('', '\t\n', 'x'),
  'invisible characters': run('', '\u200b\u202e', 'x'),
  'combining marks': run('e', '\u0301', ''),
  'at signs': run('', 'a@', ''),
  'an address that never ends': run('a@', 'b', ''),
  'dotted domains': run('a@', 'b.', 'c'),
  digits: run('', '9', ''),
  filters: run('', 'cat:', 'x'),
  'slashes and underscores': run('A', '/_', '1'),
  'formatting characters': run('', '*_~`', ''),
};

/**
 * The processor time (milliseconds) of `times` calls of `fn` on `text`: the process's own
 * time, so another process taking the processor meanwhile does not count.
 */
function timeOf(fn: (text: string) => unknown, text: string, times: number): number {
  const started = process.cpuUsage();
  for (let i = 0; i < times; i += 1) fn(text);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/**
 * How many times longer `fn` takes on `large` than on `small`. The small call repeats until
 * a batch takes two milliseconds, long enough to time on a busy machine; the large batch
 * repeats as often. A garbage collection or a loaded processor only ever adds time, so a ratio
 * over the bound is measured again and each length keeps its least time over at most five
 * rounds.
 */
function growth(fn: (text: string) => unknown, small: string, large: string): number {
  fn(large);
  const times = Math.ceil(2 / Math.max(timeOf(fn, small, 1), 0.001));
  let leastSmall = timeOf(fn, small, times);
  let leastLarge = timeOf(fn, large, times);
  for (let round = 1; round < 5 && leastLarge / leastSmall > MAX_GROWTH; round += 1) {
    leastSmall = Math.min(leastSmall, timeOf(fn, small, times));
    leastLarge = Math.min(leastLarge, timeOf(fn, large, times));
  }
  return leastLarge / leastSmall;
}

describe('adversarial text, 5,000 against 40,000 characters', () => {
  for (const [shape, text] of Object.entries(ADVERSARIAL)) {
    it(`takes linear time on ${shape}`, () => {
      const [small, large] = [text(SMALL), text(LENGTH)];
      const superlinear: string[] = [];
      for (const [name, fn] of Object.entries(TEXT_FUNCTIONS)) {
        const ratio = growth(fn, small, large);
        if (ratio > MAX_GROWTH) superlinear.push(`${name}: ${ratio.toFixed(1)}x`);
      }
      expect(superlinear).toEqual([]);
    });
  }

  it('still finds the code before the dash run', () => {
    const text = ADVERSARIAL['a code, then a dash run ending in a digit']?.(LENGTH) ?? '';
    expect(extractItemCodes(text)).toEqual(['WIDGET-9']);
  });
});

/**
 * The patterns the linear code replaced, kept as a reference: they are right, only slow on
 * long runs, so on short messages the new code must find exactly what they found (with the
 * accents dropped first, as the finder does since it reads `WIDGÉT-9`).
 */
function referenceItemCodes(message: string, max = 5): string[] {
  const text = stripSlackMarkup(message, { bareLinks: 'drop' })
    .replace(/^[ \t]*>+/gm, ' ')
    .replace(/:[a-z0-9_+'-]*[a-z][a-z0-9_+'-]*:/g, ' ')
    .replace(/[*~`]/g, ' ');
  const codes: string[] = [];
  const seen = new Set<string>();
  for (const typed of text.split(/\s+/)) {
    if (typed.includes('@') || /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/i.test(typed)) continue;
    // Accents are dropped before the split (`WIDGÉT-9` reads as `WIDGET-9`).
    const word = typed.normalize('NFKD').replace(/\p{M}/gu, '');
    for (const piece of word.split(/[^A-Za-z0-9\-/._]+/)) {
      const code = piece.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
      if (!looksLikeItemCode(code) || seen.has(code.toUpperCase())) continue;
      seen.add(code.toUpperCase());
      codes.push(code);
      if (codes.length >= max) return codes;
    }
  }
  return codes;
}

// Characters the patterns care about, so that random text hits their edges often.
const messageCharacter = fc.constantFrom(
  ..."AB9z0:-_.,/+'*~` \n\t>@<|#!&;()é".split(''),
  'WIDGET-9',
  ':smile:',
  '&gt;',
  '<@U1>',
  '<https://x.example/A-1|AB12>',
);
const message = (maxLength: number) =>
  fc.array(messageCharacter, { maxLength }).map((parts) => parts.join(''));

describe('fuzzing the code finder', () => {
  it('finds exactly what the old patterns found, on messages within the limit', () => {
    fc.assert(
      fc.property(message(200), (text) => {
        expect(extractItemCodes(text)).toEqual(referenceItemCodes(text));
      }),
      { seed: 20261124, numRuns: 3000 },
    );
  });

  it('reads long messages as their first 4,000 characters', () => {
    fc.assert(
      fc.property(message(12_000), (text) => {
        for (const code of extractItemCodes(text)) {
          expect(text.slice(0, MAX_MESSAGE_TEXT)).toContain(code);
        }
      }),
      { seed: 20261125, numRuns: 60 },
    );
  });

  // A hang fails on the test's timeout; superlinear growth is the adversarial shapes' check.
  it('never throws on any text in any text function', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          message(8_000),
          fc.string({ unit: 'binary', maxLength: 8_000 }),
          fc
            .tuple(fc.string({ maxLength: 3 }), fc.integer({ min: 1, max: 20_000 }))
            .map(([unit, times]) => unit.repeat(times)),
        ),
        (text) => {
          for (const fn of Object.values(TEXT_FUNCTIONS)) fn(text);
          expect(truncate(text, 10)).toBeTypeOf('string');
        },
      ),
      { seed: 20261126, numRuns: 80 },
    );
  });
});

describe('"Look up stock" on a 40,000-character message, through the HTTP receiver', () => {
  failOnEscapedRejections();
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ mode: 'http' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers with the code, and /healthz answers meanwhile', async () => {
    const responseUrl = app.slack.responseUrl();
    const body = interactionForm(
      messageShortcutPayload({
        callbackId: 'stock_lookup_message',
        messageText: ADVERSARIAL['a code, then a dash run ending in a digit']?.(LENGTH) ?? '',
        responseUrl,
      }),
    );
    const shortcuts = Array.from({ length: 3 }, () =>
      postToSlackApp(app.eventsUrl, body, { signingSecret: SIGNING_SECRET }),
    );
    const health = await request(`${app.baseUrl}/healthz`, { reset: true });
    await health.body.dump();
    for (const reply of await Promise.all(shortcuts)) expect(reply.status).toBe(200);
    expect(health.statusCode).toBe(200);
    const [first] = await app.slack.waitForResponses(responseUrl, 1, 10_000);
    expect(textOf(first?.body ?? {})).toContain('WIDGET-9');
  });
});
