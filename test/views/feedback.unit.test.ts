import { describe, expect, it } from 'vitest';
import {
  AuthError,
  BadRequestError,
  type ErpEndpoint,
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TenantError,
  UnavailableError,
  UnexpectedDataError,
} from '../../src/erp/errors.js';
import { BusyError } from '../../src/lookup/types.js';
import { decodeState } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import {
  commandRetry,
  contactWordsRetry,
  errorMessage,
  errorToUserMessage,
  noticeMessage,
  shareConfirmation,
  workingMessage,
} from '../../src/views/feedback.js';
import { progressMessage } from '../../src/views/progress.js';
import { TEST_NOW } from '../helpers/builders.js';
import { allText } from './inspect.js';

/** Internals that must never reach a user: messages, bodies, status codes, paths, secrets. */
const INTERNAL = 'SECRET-token-abc123 https://erp.internal/api/getItem';
const opts = (endpoint: ErpEndpoint = 'getItem') => ({
  endpoint,
  statusCode: 599,
  bodySnippet: `body ${INTERNAL}`,
  cause: new Error(INTERNAL),
});

const cases: Array<[string, unknown, string]> = [
  [
    'not found (item)',
    new NotFoundError(INTERNAL, opts('getItem')),
    'No item has that code in the ERP.',
  ],
  [
    'not found (contact)',
    new NotFoundError(INTERNAL, opts('getContact')),
    'No contact has that code in the ERP.',
  ],
  [
    'bad request (search)',
    new BadRequestError(INTERNAL, opts('searchItems')),
    'The ERP needs at least one word to search for: add a keyword.',
  ],
  [
    'bad request (lookup)',
    new BadRequestError(INTERNAL, opts('getItem')),
    'The ERP refused that code; check it and try again.',
  ],
  [
    'refused locally (a code that cannot go in a URL)',
    new InvalidInputError(INTERNAL, { ...opts('getItem'), problem: 'not_text' }),
    'That is not a code or id that can be looked up; check it and try again.',
  ],
  [
    'refused locally (a bad id)',
    new InvalidInputError(INTERNAL, { ...opts('getContact'), problem: 'bad_id' }),
    'That is not a code or id that can be looked up; check it and try again.',
  ],
  [
    'refused locally (search words that cannot be sent)',
    new InvalidInputError(INTERNAL, { ...opts('searchItems'), problem: 'not_text' }),
    'Those search words contain characters that cannot be searched for; retype them and try again.',
  ],
  ['auth', new AuthError(INTERNAL, opts()), 'The ERP connection is misconfigured; ask an admin.'],
  [
    'tenant',
    new TenantError(INTERNAL, opts()),
    'The ERP connection is misconfigured; ask an admin.',
  ],
  [
    'rate limited, with Retry-After',
    new RateLimitedError(INTERNAL, { ...opts(), retryAfterMs: 20_000 }),
    'The ERP is busy (too many requests); try again in about 20 s.',
  ],
  [
    'rate limited, without',
    new RateLimitedError(INTERNAL, opts()),
    'The ERP is busy (too many requests); try again in a minute.',
  ],
  [
    'server error',
    new ServerError(INTERNAL, opts()),
    'The ERP is not answering; try again in a minute.',
  ],
  [
    'unavailable (timeout)',
    new UnavailableError(INTERNAL, { ...opts(), reason: 'timeout' }),
    'The ERP is not answering; try again in a minute.',
  ],
  [
    'unavailable (circuit open)',
    new UnavailableError(INTERNAL, { ...opts(), reason: 'circuit_open' }),
    'The ERP is not answering; try again in a minute.',
  ],
  [
    'unavailable (too large)',
    new UnavailableError(INTERNAL, { ...opts(), reason: 'too_large' }),
    'The ERP sent more data than we can read; an admin has the details in the log.',
  ],
  [
    'unexpected data',
    new UnexpectedDataError(INTERNAL, {
      ...opts(),
      issues: [{ path: 'branches.3.available', message: INTERNAL }],
    }),
    'The ERP returned unexpected data; an admin has the details in the log.',
  ],
  ['busy', new BusyError('getItem', 19_200), 'Lots of lookups right now; try again in about 20 s.'],
  [
    'unknown Error',
    new Error(INTERNAL),
    'Something went wrong on our side; try again, and tell an admin if it keeps happening.',
  ],
  [
    'a thrown string',
    INTERNAL,
    'Something went wrong on our side; try again, and tell an admin if it keeps happening.',
  ],
];

describe('errorToUserMessage', () => {
  it.each(cases)('%s', (_name, error, expected) => {
    const words = errorToUserMessage(error);
    expect(words).toBe(expected);
    expect(words).not.toMatch(/SECRET|https?:|599|getItem|branches\.3/);
  });

  it.each(cases.filter(([, error]) => error instanceof InvalidInputError))(
    '%s: says what was typed is the problem, never that the ERP refused it',
    (_name, error) => {
      expect(errorToUserMessage(error)).not.toMatch(/ERP|refused/);
    },
  );
});

describe('errorMessage', () => {
  it('is one warning section, with what was asked escaped', () => {
    const message = errorMessage(new ServerError('x', opts()), { what: 'W<!channel>' });
    expect(message).toEqual({
      text: 'W&lt;!channel&gt;: The ERP is not answering; try again in a minute.',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: ':warning: *W&lt;!channel&gt;*: The ERP is not answering; try again in a minute.',
            verbatim: true,
          },
        },
      ],
    });
  });

  it('can say how old the last good data is', () => {
    const fetchedAt = new Date(TEST_NOW.getTime() - 12 * 60_000);
    const message = errorMessage(new ServerError('x', opts()), {
      stale: { fetchedAt },
      now: TEST_NOW,
    });
    expect(allText(message)).toContain(
      'The last data we have was fetched <!date^1772447580^{date_short_pretty} at {time} ({ago})|2 Mar 2026 at 10:33 UTC>.',
    );
    expect(checkMessageLimits(message)).toEqual([]);
  });
});

describe('workingMessage', () => {
  it('is one short line saying why and how long', () => {
    expect(workingMessage('WIDGET-9', { kind: 'queued', waitMs: 19_500 })).toEqual({
      text: 'Looking up WIDGET-9: queued behind other lookups; I’ll post it here in about 20 s',
      blocks: [
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: ':hourglass_flowing_sand: Looking up WIDGET-9: queued behind other lookups; I’ll post it here in about 20 s',
              verbatim: true,
            },
          ],
        },
      ],
    });
    expect(workingMessage('x', { kind: 'queued', waitMs: 150_000 }).text).toContain('about 3 min');
    expect(workingMessage('x', { kind: 'slow' }).text).toBe(
      'Looking up x: the ERP is slow to answer, a few more seconds',
    );
    expect(workingMessage('x', { kind: 'retrying' }).text).toBe(
      'Looking up x: the ERP did not answer, trying again',
    );
  });

  it('escapes and shortens what is looked up', () => {
    const message = workingMessage(`<@U123>${'x'.repeat(500)}`, { kind: 'slow' });
    expect(message.text).toMatch(/^Looking up &lt;@U123&gt;x+…: the ERP/);
    expect(checkMessageLimits(message)).toEqual([]);
  });
});

describe('noticeMessage and shareConfirmation', () => {
  it('escapes notice text', () => {
    expect(noticeMessage('No access to <!everyone> & co')).toEqual({
      text: 'No access to &lt;!everyone&gt; &amp; co',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'No access to &lt;!everyone&gt; &amp; co', verbatim: true },
        },
      ],
    });
  });

  it('links the channel only for a valid channel id', () => {
    expect(shareConfirmation('C0123ABC').text).toBe('Shared to <#C0123ABC>');
    expect(shareConfirmation('C1|x><!here').text).toBe('Shared to the channel');
    expect(shareConfirmation().text).toBe('Shared to the channel');
  });
});

describe('progressMessage (working lines from data)', () => {
  it('words the subject once, never "Looking up Looking up"', () => {
    const slow = { kind: 'slow' } as const;
    expect(progressMessage({ kind: 'codes', count: 3 }, slow).text).toBe(
      'Looking up 3 codes: the ERP is slow to answer, a few more seconds',
    );
    expect(
      progressMessage({ kind: 'record', noun: 'item', ref: { code: 'WIDGET-9' } }, slow).text,
    ).toBe('Looking up WIDGET-9: the ERP is slow to answer, a few more seconds');
    expect(
      progressMessage({ kind: 'record', noun: 'contact', ref: { id: 12 } }, slow).text,
    ).toMatch(/^Looking up contact #12: /);
    expect(progressMessage({ kind: 'search', noun: 'contact' }, slow).text).toMatch(
      /^Searching contacts: /,
    );
  });

  it('tells a user queued behind their own lookups how many and how long', () => {
    const subject = { kind: 'record', noun: 'item', ref: { code: 'W-1' } } as const;
    expect(progressMessage(subject, { kind: 'queued', waitMs: 49_200, ownAhead: 9 }).text).toBe(
      'Looking up W-1: queued behind your other 9 lookups; I’ll post it here in about 50 s',
    );
    expect(progressMessage(subject, { kind: 'queued', waitMs: 3_000, ownAhead: 1 }).text).toBe(
      'Looking up W-1: queued behind your other lookup; I’ll post it here in about 3 s',
    );
    expect(progressMessage(subject, { kind: 'queued', waitMs: 3_000, ownAhead: 0 }).text).toBe(
      'Looking up W-1: queued behind other lookups; I’ll post it here in about 3 s',
    );
  });
});

describe('Try again on an error that may pass', () => {
  const retry = commandRetry('stock', 'WIDGET-9 50 perth');
  const labels = (message: { blocks: unknown[] }) =>
    JSON.stringify(message.blocks).match(/"text":"Try again"/g)?.length ?? 0;

  it('the ERP down, ours or its budget busy: one Try again asking the same text', () => {
    for (const error of [
      new ServerError('x', { endpoint: 'getItem', statusCode: 503 }),
      new BusyError('getItem', 20_000),
      new RateLimitedError('x', { endpoint: 'getItem', retryAfterMs: 5_000 }),
    ]) {
      const message = errorMessage(error, { retry });
      expect(labels(message), error.name).toBe(1);
      expect(checkMessageLimits(message)).toEqual([]);
      const button = JSON.stringify(message.blocks);
      expect(button).toContain('"action_id":"command_retry"');
      expect(button).toContain(JSON.stringify(JSON.stringify(retry.state)).slice(1, -1));
    }
  });

  it('none for a problem with the question, nor without a retry given', () => {
    expect(labels(errorMessage(new NotFoundError('x', { endpoint: 'getItem' }), { retry }))).toBe(
      0,
    );
    expect(
      labels(errorMessage(new ServerError('x', { endpoint: 'getItem', statusCode: 503 }))),
    ).toBe(0);
    // Text too long for a button value: the answer stands without the button.
    const long = commandRetry('stock', 'x'.repeat(3_000));
    expect(labels(errorMessage(new BusyError('getItem', 1_000), { retry: long }))).toBe(0);
  });

  it('a contact asked by account words with people words: the words, read back as they went', () => {
    const words = contactWordsRetry(['acme', 'industrial'], ['purchasing', 'officer']);
    const message = errorMessage(new BusyError('searchContact', 1_000), { retry: words });
    expect(labels(message)).toBe(1);
    const value = JSON.stringify(words.state);
    expect(decodeState(value)).toEqual({ ok: true, state: words.state });
    // More words than a button carries: no button rather than another question.
    const many = contactWordsRetry(
      ['acme'],
      Array.from({ length: 11 }, (_, i) => `w${i}`),
    );
    expect(labels(errorMessage(new BusyError('searchContact', 1_000), { retry: many }))).toBe(0);
  });

  it('refuses a forged Try again: both forms, neither, or words for /stock', () => {
    const w = { a: ['acme'], p: ['accounts'] };
    for (const forged of [
      { v: 1, t: 'rc', f: 'contact', x: 'ACME01', w },
      { v: 1, t: 'rc', f: 'contact' },
      { v: 1, t: 'rc', f: 'stock', w },
      { v: 1, t: 'rc', f: 'contact', w: { a: [], p: ['accounts'] } },
      { v: 1, t: 'rc', f: 'contact', w: { ...w, extra: 1 } },
    ]) {
      expect(decodeState(JSON.stringify(forged)), JSON.stringify(forged)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });
});
