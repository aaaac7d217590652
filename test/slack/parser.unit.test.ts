import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContactQuery, ItemQuery } from '../../src/lookup/types.js';
import { MAX_WORD_LENGTH, MAX_WORDS, type ParseResult } from '../../src/slack/input.js';
import {
  type ContactRequest,
  contactQueryText,
  parseContactCommand,
  parseStockCommand,
  type StockRequest,
  stockQueryText,
} from '../../src/slack/parser.js';
import { commandNoticeText, commandProblemText } from '../../src/views/feedback.js';

function request<T>(result: ParseResult<T>): T {
  if (!result.ok) throw new Error(`expected ok, got: ${commandProblemText(result.error)}`);
  return result.request;
}

/** The problem as the user reads it (the parser returns data; the view words it). */
function error<T>(result: ParseResult<T>): string {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.request)}`);
  return commandProblemText(result.error);
}

function notices<T>(result: ParseResult<T>): string[] | false {
  return result.ok && result.notices.map(commandNoticeText);
}

describe('parseStockCommand: help', () => {
  it.each([
    '',
    '   ',
    'help',
    'HELP',
    'Help',
    '?',
    '-h',
    '-H',
    '--help',
    '--HELP',
    ' \t help \n',
    '\u200b',
  ])('%j is help', (text) => {
    expect(parseStockCommand(text)).toEqual({ ok: true, request: { kind: 'help' }, notices: [] });
    expect(parseContactCommand(text)).toEqual({ ok: true, request: { kind: 'help' }, notices: [] });
  });

  it('a help word among others is a search', () => {
    expect(request(parseStockCommand('help desk'))).toEqual({
      kind: 'search',
      query: { words: ['help', 'desk'] },
    });
  });
});

describe('parseStockCommand: exact lookups', () => {
  it.each<[string, StockRequest]>([
    ['WIDGET-9', { kind: 'item', ref: { code: 'WIDGET-9' }, token: 'WIDGET-9' }],
    ['  widget-9  ', { kind: 'item', ref: { code: 'widget-9' }, token: 'widget-9' }],
    ['id:123', { kind: 'item', ref: { id: 123 }, token: '' }],
    ['ID:123', { kind: 'item', ref: { id: 123 }, token: '' }],
    ['id: 123', { kind: 'item', ref: { id: 123 }, token: '' }],
    ['#123', { kind: 'item', ref: { id: 123 }, token: '' }],
    ['#007', { kind: 'item', ref: { id: 7 }, token: '' }],
    ['id:0', { kind: 'item', ref: { id: 0 }, token: '' }],
    ['id:5 #5', { kind: 'item', ref: { id: 5 }, token: '' }],
    ['id:9007199254740991', { kind: 'item', ref: { id: Number.MAX_SAFE_INTEGER }, token: '' }],
    // Unknown keys with a colon are codes, kept as typed.
    ['AB:12', { kind: 'item', ref: { code: 'AB:12' }, token: 'AB:12' }],
    ['type:client', { kind: 'item', ref: { code: 'type:client' }, token: 'type:client' }],
    // Path tricks are characters of the code: the ERP client encodes them.
    ['../x', { kind: 'item', ref: { code: '../x' }, token: '../x' }],
    ['%2F', { kind: 'item', ref: { code: '%2F' }, token: '%2F' }],
    ['a?b', { kind: 'item', ref: { code: 'a?b' }, token: 'a?b' }],
    ['AB#1', { kind: 'item', ref: { code: 'AB#1' }, token: 'AB#1' }],
    ['#12x', { kind: 'item', ref: { code: '#12x' }, token: '#12x' }],
    ['W\u200bIDGET\u202e-9', { kind: 'item', ref: { code: 'WIDGET-9' }, token: 'WIDGET-9' }],
    ['Cafe\u0301', { kind: 'item', ref: { code: 'Café' }, token: 'Café' }],
  ])('%j', (text, expected) => {
    expect(parseStockCommand(text)).toEqual({ ok: true, request: expected, notices: [] });
  });
});

describe('parseStockCommand: searches', () => {
  it.each<[string, ItemQuery]>([
    ['blue widget', { words: ['blue', 'widget'] }],
    ['Blue   WIDGET', { words: ['Blue', 'WIDGET'] }],
    ['blue\twidget\nlarge', { words: ['blue', 'widget', 'large'] }],
    ['category:12', { words: [], category: 12 }],
    ['WIDGET-9 category:12', { words: ['WIDGET-9'], category: 12 }],
    [
      'category:12 blue supplier:7 widget',
      { words: ['blue', 'widget'], category: 12, supplier: 7 },
    ],
    ['cat:3 sup:4', { words: [], category: 3, supplier: 4 }],
    ['CATEGORY:3 Supplier:4', { words: [], category: 3, supplier: 4 }],
    ['category: 12 blue', { words: ['blue'], category: 12 }],
    ['category:3 category:3 x', { words: ['x'], category: 3 }],
  ])('%j', (text, query) => {
    expect(parseStockCommand(text)).toEqual({
      ok: true,
      request: { kind: 'search', query },
      notices: [],
    });
  });
});

describe('parseStockCommand: errors', () => {
  it.each([
    ['category:abc', /category.*whole number.*\/stock widget category:12/],
    ['category:-1', /"category:-1" is not valid/],
    ['category:1.5', /whole number/],
    ['category:', /"category:" is not valid/],
    ['supplier:1x blue', /supplier.*whole number/],
    ['supplier:acme supplier:bolt', /supplier is given twice/],
    ['supplier:acme sup:4', /supplier is given twice/],
    ['category:99999999999999999999', /whole number/],
    ['category:\uff11\uff12', /whole number/],
    ['category:3 category:4', /category is given twice \("category:3" and "category:4"\)/],
    ['supplier:1 sup:2', /supplier is given twice/],
    ['id:12x', /"id:12x" is not valid: An id is a whole number.*\/stock id:123/],
    ['id:', /id.*whole number/],
    ['id:-4', /whole number/],
    ['#', /"#" needs an id number after it, for example \/stock #123/],
    ['id:1 id:2', /id is given twice/],
    ['id:1 #2', /id is given twice/],
    ['id:123 blue', /An id lookup takes nothing else/],
    ['#123 category:4', /An id lookup takes nothing else/],
    ['<@U123|bob>', /Mentions, channels and e-mail links cannot be looked up.*\/stock WIDGET-9/],
    ['<#C123|general> <!here>', /cannot be looked up/],
  ])('%j', (text, message) => {
    expect(error(parseStockCommand(text))).toMatch(message);
  });

  it('quotes at most a short piece of a bad value', () => {
    const message = error(parseStockCommand(`category:${'x'.repeat(150)}`));
    expect(message).toContain('…');
    expect(message.length).toBeLessThan(200);
  });
});

describe('Slack markup in command text', () => {
  it.each<[string, StockRequest]>([
    ['<@U123|bob> WIDGET-9', { kind: 'item', ref: { code: 'WIDGET-9' }, token: 'WIDGET-9' }],
    ['WIDGET-9 <#C123|general>', { kind: 'item', ref: { code: 'WIDGET-9' }, token: 'WIDGET-9' }],
    ['<C987654321|> WIDGET-9', { kind: 'item', ref: { code: 'WIDGET-9' }, token: 'WIDGET-9' }],
    ['<!channel> blue widget', { kind: 'search', query: { words: ['blue', 'widget'] } }],
    [
      '<http://widget.io|widget.io>',
      { kind: 'item', ref: { code: 'widget.io' }, token: 'widget.io' },
    ],
    ['<mailto:a@b.co|a@b.co> W-9', { kind: 'item', ref: { code: 'W-9' }, token: 'W-9' }],
    ['AB&amp;C', { kind: 'item', ref: { code: 'AB&C' }, token: 'AB&C' }],
    ['&lt;b&gt;', { kind: 'item', ref: { code: '<b>' }, token: '<b>' }],
  ])('%j', (text, expected) => {
    expect(request(parseStockCommand(text))).toEqual(expected);
  });
});

describe('parseStockCommand: code-first questions', () => {
  const question = (code: string, extra: object, words: string[]) => ({
    kind: 'question',
    code,
    branchWords: [],
    ...extra,
    fallback: { words },
  });
  it.each<[string, object]>([
    ['WIDGET-9 50', question('WIDGET-9', { quantity: 50 }, ['WIDGET-9', '50'])],
    ['WIDGET-9 perth', question('WIDGET-9', { branchWords: ['perth'] }, ['WIDGET-9', 'perth'])],
    [
      'WIDGET-9 50 perth',
      question('WIDGET-9', { quantity: 50, branchWords: ['perth'] }, ['WIDGET-9', '50', 'perth']),
    ],
    [
      'WIDGET-9 perth airport 50x',
      question('WIDGET-9', { quantity: 50, branchWords: ['perth', 'airport'] }, [
        'WIDGET-9',
        'perth',
        'airport',
        '50x',
      ]),
    ],
    [
      'widget-9 x12 mel',
      question('widget-9', { quantity: 12, branchWords: ['mel'] }, ['widget-9', 'x12', 'mel']),
    ],
    ['WIDGET-9 40 pcs', question('WIDGET-9', { quantity: 40 }, ['WIDGET-9', '40', 'pcs'])],
    [
      'WIDGET-9 40units syd',
      question('WIDGET-9', { quantity: 40, branchWords: ['syd'] }, ['WIDGET-9', '40units', 'syd']),
    ],
    ['WIDGET-9 7 UNITS', question('WIDGET-9', { quantity: 7 }, ['WIDGET-9', '7', 'UNITS'])],
    // A word that is only a unit, with no number before it, is a branch word.
    ['BOLTS units', question('BOLTS', { branchWords: ['units'] }, ['BOLTS', 'units'])],
    // Lower-case words without digits: a quantity still makes the first word a candidate.
    ['bolt 50', question('bolt', { quantity: 50 }, ['bolt', '50'])],
  ])('%j', (text, expected) => {
    expect(request(parseStockCommand(text))).toEqual(expected);
  });

  it.each(['blue widget', 'watch strap', 'watch WIDGET-9', 'help desk', 'Blue widget'])(
    '%j stays a search',
    (text) => {
      expect(request(parseStockCommand(text)).kind).toBe('search');
    },
  );

  it('two different quantities are a problem', () => {
    expect(error(parseStockCommand('WIDGET-9 50 60'))).toMatch(
      /Two quantities \("50" and "60"\).*\/stock WIDGET-9 50/,
    );
    expect(request(parseStockCommand('WIDGET-9 50 50x'))).toMatchObject({ quantity: 50 });
  });

  it('a quantity is a whole number from 1: 0 or a negative number is a usage problem', () => {
    for (const text of [
      'WIDGET-9 0',
      'WIDGET-9 -5',
      'WIDGET-9 perth 0x',
      'bolt 0',
      'WIDGET-9 -3pcs',
    ]) {
      expect(error(parseStockCommand(text)), text).toMatch(
        /is not a quantity anyone can promise: ask for 1 or more, for example \/stock \S+ 50\./,
      );
    }
  });

  it('a second code is a second code, not a branch', () => {
    expect(request(parseStockCommand('WIDGET-9 WIDGET-90'))).toEqual({
      kind: 'codes',
      codes: ['WIDGET-9', 'WIDGET-90'],
    });
    expect(request(parseStockCommand('widget-9 pump-220 perth'))).toEqual({
      kind: 'codes',
      codes: ['widget-9', 'pump-220'],
    });
  });

  it('words that ask nothing of a branch are left out; the others stay branch words', () => {
    expect(request(parseStockCommand('WIDGET-9 price'))).toMatchObject({
      kind: 'question',
      branchWords: [],
    });
    expect(request(parseStockCommand('WIDGET-9 50 in Perth WA'))).toMatchObject({
      kind: 'question',
      quantity: 50,
      branchWords: ['Perth', 'WA'],
    });
  });

  it('filters make it a search as before', () => {
    expect(request(parseStockCommand('WIDGET-9 50 category:3'))).toEqual({
      kind: 'search',
      query: { words: ['WIDGET-9', '50'], category: 3 },
    });
  });
});

describe('parseStockCommand: several codes, lists, suppliers', () => {
  it.each<[string, string[]]>([
    ['WIDGET-9, WIDGET-90', ['WIDGET-9', 'WIDGET-90']],
    ['WIDGET-9,PUMP-220,  BOLT-1', ['WIDGET-9', 'PUMP-220', 'BOLT-1']],
    ['a-1, A-1, b-2,', ['a-1', 'b-2']],
  ])('%j', (text, codes) => {
    expect(request(parseStockCommand(text))).toEqual({ kind: 'codes', codes });
  });

  it('one code with a trailing comma, or phrases with commas, are not several codes', () => {
    expect(request(parseStockCommand('WIDGET-9,')).kind).toBe('item');
    expect(request(parseStockCommand('blue widget, red')).kind).toBe('search');
  });

  it.each([
    ['suppliers', { kind: 'suppliers' }],
    ['SUPPLIERS', { kind: 'suppliers' }],
    ['watches', { kind: 'watches' }],
    ['categories', { kind: 'categories' }],
  ])('%j is a list', (text, expected) => {
    expect(request(parseStockCommand(text))).toEqual(expected);
  });

  it('supplier:WORD is a name to resolve; supplier:N stays an id', () => {
    expect(request(parseStockCommand('bolt supplier:acme'))).toEqual({
      kind: 'search',
      query: { words: ['bolt'] },
      supplierName: 'acme',
    });
    expect(request(parseStockCommand('supplier:7'))).toEqual({
      kind: 'search',
      query: { words: [], supplier: 7 },
    });
    expect(stockQueryText({ words: ['bolt'], supplierName: 'acme' })).toBe('bolt supplier:acme');
  });
});

describe('parseStockCommand: watches', () => {
  it.each<[string, object]>([
    [
      'watch WIDGET-9 below 20',
      { kind: 'watch', code: 'WIDGET-9', direction: 'below', threshold: 20, branchWords: [] },
    ],
    [
      'watch WIDGET-9 below 20 at perth',
      {
        kind: 'watch',
        code: 'WIDGET-9',
        direction: 'below',
        threshold: 20,
        branchWords: ['perth'],
      },
    ],
    [
      'Watch widget-9 ABOVE 0 at perth airport',
      {
        kind: 'watch',
        code: 'widget-9',
        direction: 'above',
        threshold: 0,
        branchWords: ['perth', 'airport'],
      },
    ],
    ['unwatch WIDGET-9', { kind: 'unwatch', code: 'WIDGET-9', branchWords: [] }],
    ['unwatch WIDGET-9 at perth', { kind: 'unwatch', code: 'WIDGET-9', branchWords: ['perth'] }],
  ])('%j', (text, expected) => {
    expect(request(parseStockCommand(text))).toEqual(expected);
  });

  it.each([
    ['watch WIDGET-9 below', /whole number after "below".*watch WIDGET-9 below 20/],
    ['watch WIDGET-9 above lots', /whole number after "above"/],
    ['watch WIDGET-9 below 20 at', /"at" needs a branch name/],
    ['unwatch', /Say which watch to remove/],
  ])('%j is a problem', (text, message) => {
    expect(error(parseStockCommand(text))).toMatch(message);
  });
});

describe('limits and notices', () => {
  it('cuts text over 200 characters and says so', () => {
    const result = parseStockCommand(`${'blue '.repeat(15)}${'x'.repeat(200)}`);
    expect(notices(result)).toContain('Your text was cut to 200 characters.');
  });

  it('keeps the first 20 words', () => {
    const text = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    const result = parseStockCommand(text);
    expect(notices(result)).toEqual(['Only the first 20 words were used.']);
    // `w0`, `w1`… could each be a code: a second code is a second code, not a branch.
    expect(request(result)).toEqual({
      kind: 'codes',
      codes: Array.from({ length: 20 }, (_, i) => `w${i}`),
    });
  });

  it('cuts words over 100 characters', () => {
    const result = parseStockCommand(`${'a'.repeat(150)} b`);
    expect(notices(result)).toContain('Words longer than 100 characters were cut to 100.');
    const search = request(result);
    expect(search.kind === 'search' && search.query.words).toEqual(['a'.repeat(100), 'b']);
  });

  it('cuts an over-long code too, and searches for what it looks up', () => {
    const result = parseStockCommand('Z'.repeat(180));
    expect(result).toEqual({
      ok: true,
      request: { kind: 'item', ref: { code: 'Z'.repeat(100) }, token: 'Z'.repeat(100) },
      notices: [{ kind: 'words_cut', maxWordLength: 100 }],
    });
  });
});

describe('parseContactCommand', () => {
  it.each<[string, ContactRequest]>([
    ['ACME01', { kind: 'contact', ref: { code: 'ACME01' }, token: 'ACME01' }],
    ['#42', { kind: 'contact', ref: { id: 42 }, token: '' }],
    ['id:42', { kind: 'contact', ref: { id: 42 }, token: '' }],
    ['acme pty', { kind: 'search', query: { words: ['acme', 'pty'] } }],
    ['acme type:client', { kind: 'search', query: { words: ['acme'], type: 'client' } }],
    ['type:customer', { kind: 'search', query: { words: [], type: 'client' } }],
    ['type:Customers acme', { kind: 'search', query: { words: ['acme'], type: 'client' } }],
    ['TYPE:CLIENTS acme', { kind: 'search', query: { words: ['acme'], type: 'client' } }],
    ['type:supplier acme', { kind: 'search', query: { words: ['acme'], type: 'supplier' } }],
    ['type:suppliers', { kind: 'search', query: { words: [], type: 'supplier' } }],
    ['type:client type:customer', { kind: 'search', query: { words: [], type: 'client' } }],
    // Item filters are not contact filters: they are words.
    ['category:3', { kind: 'contact', ref: { code: 'category:3' }, token: 'category:3' }],
    ['acme supplier:2', { kind: 'search', query: { words: ['acme', 'supplier:2'] } }],
    // A code, then words: that contact's matching people, if the code exists.
    [
      'ACME01 accounts',
      {
        kind: 'people',
        code: 'ACME01',
        peopleWords: ['accounts'],
        fallback: { words: ['ACME01', 'accounts'] },
      },
    ],
    [
      'ACME01 jane smith',
      {
        kind: 'people',
        code: 'ACME01',
        peopleWords: ['jane', 'smith'],
        fallback: { words: ['ACME01', 'jane', 'smith'] },
      },
    ],
  ])('%j', (text, expected) => {
    expect(parseContactCommand(text)).toEqual({ ok: true, request: expected, notices: [] });
  });

  it.each([
    [
      'type:partner',
      /"type:partner" is not valid: type is client \(or customer\) or supplier.*\/contact acme type:client/,
    ],
    ['acme type:', /type is client/],
    ['type:toString', /type is client/],
    ['type:__proto__', /type is client/],
    ['type:client type:supplier', /type is given twice/],
    ['id:4x', /\/contact id:123/],
    ['#', /\/contact #123/],
    ['#5 acme', /An id lookup takes nothing else: use \/contact id:5/],
    ['<@U1>', /\/contact ACME01/],
  ])('%j is an error', (text, message) => {
    expect(error(parseContactCommand(text))).toMatch(message);
  });
});

// ---- properties ----

const anyText = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          '\u0000',
          '\t',
          '\n',
          '\u202e',
          '\u200b',
          '\ud800',
          ' ',
          '#',
          '#1',
          'id:',
          'id:7',
          'category:',
          'category:2',
          'sup:x',
          'type:client',
          'type:',
          '<@U1|bob>',
          '<https://x|y>',
          '&amp;',
          'help',
          '?',
        ),
        fc.string({ maxLength: 12 }),
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join(' ')),
);

const huge = fc.constantFrom(
  'x'.repeat(100_000),
  'a b '.repeat(50_000),
  '\u0000\u202e'.repeat(50_000),
  '<@U1>'.repeat(20_000),
  'category:1 '.repeat(10_000),
);

type AnyRequest = StockRequest | ContactRequest;

function assertWithinLimits(result: ParseResult<AnyRequest>): void {
  if (!result.ok) {
    expect(commandProblemText(result.error).length).toBeGreaterThan(0);
    return;
  }
  const req = result.request;
  if (req.kind === 'question' || req.kind === 'people') {
    expect(req.code.length).toBeGreaterThan(0);
    expect(req.code.length).toBeLessThanOrEqual(MAX_WORD_LENGTH);
    expect(req.fallback.words.length).toBeLessThanOrEqual(MAX_WORDS);
    return;
  }
  if (req.kind === 'codes') {
    expect(req.codes.length).toBeGreaterThanOrEqual(2);
    for (const code of req.codes) expect(code).not.toMatch(/[\s,]/);
    return;
  }
  if (req.kind === 'watch' || req.kind === 'unwatch') {
    expect(req.code.length).toBeGreaterThan(0);
    return;
  }
  if (req.kind === 'search') {
    expect(req.query.words.length).toBeLessThanOrEqual(MAX_WORDS);
    for (const word of req.query.words) {
      expect(word.length).toBeGreaterThan(0);
      expect(word.length).toBeLessThanOrEqual(MAX_WORD_LENGTH);
      expect(word).not.toMatch(/\s/);
      expect(() => encodeURIComponent(word)).not.toThrow();
    }
    const filters = req.query as Partial<ItemQuery>;
    for (const value of [filters.category, filters.supplier]) {
      if (value !== undefined) expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
    }
  } else if (
    req.kind !== 'help' &&
    req.kind !== 'categories' &&
    req.kind !== 'suppliers' &&
    req.kind !== 'watches' &&
    req.kind !== 'digest' &&
    req.kind !== 'demand'
  ) {
    if (req.kind === 'build') {
      expect(Number.isSafeInteger(req.quantity) && req.quantity > 0).toBe(true);
      return;
    }
    if ('id' in req.ref) {
      expect(Number.isSafeInteger(req.ref.id) && req.ref.id >= 0).toBe(true);
      expect(req.token).toBe('');
    } else {
      expect(req.ref.code.length).toBeGreaterThan(0);
      expect(req.ref.code.length).toBeLessThanOrEqual(MAX_WORD_LENGTH);
      expect(req.ref.code).not.toMatch(/\s/);
      expect(req.token).toBe(req.ref.code);
    }
  }
}

function searchOf(req: StockRequest): ItemQuery | undefined {
  if (req.kind === 'question') return req.fallback;
  return req.kind === 'search' ? req.query : undefined;
}

describe('properties', () => {
  it('never throws and every ok request respects the limits', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        assertWithinLimits(parseStockCommand(text));
        assertWithinLimits(parseContactCommand(text));
      }),
      { numRuns: 500 },
    );
  });

  it('copes with huge strings', () => {
    fc.assert(
      fc.property(huge, (text) => {
        assertWithinLimits(parseStockCommand(text));
        assertWithinLimits(parseContactCommand(text));
      }),
      { numRuns: 5 },
    );
  });

  it('treats non-strings from a loose caller as empty', () => {
    expect(request(parseStockCommand(undefined as unknown as string))).toEqual({ kind: 'help' });
  });

  // Words the grammar reads back as words: no spaces or invisibles, not a filter or an id.
  const word = fc
    .string({ minLength: 1, maxLength: 12, unit: 'grapheme-ascii' })
    .filter((text) => /^[!-~]+$/.test(text))
    .filter((text) => !/^(id|category|cat|supplier|sup|type):/i.test(text))
    .filter((text) => text !== '#' && !/^#[0-9]+$/.test(text) && !/[<>&,;]/.test(text))
    // Back-ticks around a word are formatting (`` `WIDGET-9` `` is WIDGET-9).
    .filter((text) => !/^`.*`$/.test(text))
    .filter((text) => !/^(watch|unwatch|watches|suppliers|categories)$/i.test(text));
  const id = fc.nat({ max: Number.MAX_SAFE_INTEGER });

  /**
   * Words after the first that make a code-first line something other than a search: a
   * quantity below 1 or a second, different quantity (usage problems), a negative number, or a
   * second code (several codes). Their own tests are above; a draw of them here is not a search.
   */
  function asksAnotherForm(words: readonly string[]): boolean {
    const quantities = new Set<number>();
    for (const w of words.slice(1)) {
      const amount = Number(/^x?([0-9]+)(?:x|pcs?|units?)?$/i.exec(w)?.[1]);
      if (Number.isSafeInteger(amount)) {
        if (amount === 0) return true;
        quantities.add(amount);
      } else if (/^-[0-9]/.test(w)) return true;
      else if (/^[\p{L}\p{N}][\p{L}\p{N}._/-]*$/u.test(w) && /\p{L}/u.test(w) && /\p{N}/u.test(w)) {
        return true;
      }
    }
    return quantities.size > 1;
  }

  it('item searches round-trip through their text', () => {
    const query = fc
      .record(
        { words: fc.array(word, { maxLength: 8 }), category: id, supplier: id },
        { requiredKeys: ['words'] },
      )
      // One word alone is an exact lookup, and nothing at all is help.
      .filter((q) => q.words.length >= 2 || q.category !== undefined || q.supplier !== undefined)
      .filter((q) => !asksAnotherForm(q.words));
    fc.assert(
      fc.property(query, (q: ItemQuery) => {
        // Code-first words are a question whose fallback is exactly the search.
        expect(searchOf(request(parseStockCommand(stockQueryText(q))))).toEqual(q);
      }),
    );
  });

  it('contact searches round-trip through their text', () => {
    const query = fc
      .record(
        { words: fc.array(word, { maxLength: 8 }), type: fc.constantFrom('client', 'supplier') },
        { requiredKeys: ['words'] },
      )
      .filter((q) => q.words.length >= 2 || q.type !== undefined);
    fc.assert(
      fc.property(query, (q: ContactQuery) => {
        const read = request(parseContactCommand(contactQueryText(q)));
        expect(
          read.kind === 'people' ? read.fallback : read.kind === 'search' && read.query,
        ).toEqual(q);
      }),
    );
  });

  it('a single word is an exact lookup of that word as typed', () => {
    fc.assert(
      fc.property(
        word.filter((w) => !['help', '?', '-h', '--help'].includes(w.toLowerCase())),
        (w) => {
          expect(request(parseStockCommand(w))).toEqual({
            kind: 'item',
            ref: { code: w },
            token: w,
          });
        },
      ),
    );
  });

  it('ids round-trip in both spellings', () => {
    fc.assert(
      fc.property(id, (n) => {
        const expected = { kind: 'item', ref: { id: n }, token: '' };
        expect(request(parseStockCommand(`id:${n}`))).toEqual(expected);
        expect(request(parseStockCommand(`#${n}`))).toEqual(expected);
      }),
    );
  });

  it('help variants in any case and padding are help', () => {
    const variant = fc
      .tuple(fc.constantFrom('help', '?', '-h', '--help'), fc.array(fc.boolean(), { maxLength: 6 }))
      .map(([w, upper]) => [...w].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''));
    const pad = fc.constantFrom('', ' ', '\t', '\n', '\u200b', '\u00a0');
    fc.assert(
      fc.property(pad, variant, pad, (before, w, after) => {
        expect(request(parseContactCommand(`${before}${w}${after}`))).toEqual({ kind: 'help' });
      }),
    );
  });
});

describe('codes and numbers as people write them', () => {
  it('reads a decimal quantity as a quantity, never a branch', () => {
    expect(request(parseStockCommand('CBL-W9 2.5'))).toMatchObject({
      kind: 'question',
      code: 'CBL-W9',
      quantity: 2.5,
      branchWords: [],
    });
  });

  it('reads codes separated by a semicolon as several codes', () => {
    expect(request(parseStockCommand('WIDGET-9; FST-M8-25'))).toEqual({
      kind: 'codes',
      codes: ['WIDGET-9', 'FST-M8-25'],
    });
  });

  it('reads a non-breaking hyphen and back-ticks as the code', () => {
    expect(request(parseStockCommand('WIDGET\u20119'))).toMatchObject({
      ref: { code: 'WIDGET-9' },
    });
    expect(request(parseStockCommand('`WIDGET-9` 5'))).toMatchObject({
      kind: 'question',
      code: 'WIDGET-9',
      quantity: 5,
    });
  });

  it('reads the branch of a watch after `in` as after `at`', () => {
    expect(request(parseStockCommand('watch WIDGET-9 below 10 in sydney'))).toMatchObject({
      kind: 'watch',
      code: 'WIDGET-9',
      threshold: 10,
      branchWords: ['sydney'],
    });
  });

  it('reads several codes each with its quantity, at one branch', () => {
    expect(request(parseStockCommand('FST-M8-25 20, WIDGET-9 5 at brisbane'))).toEqual({
      kind: 'codes',
      codes: ['FST-M8-25', 'WIDGET-9'],
      question: { quantities: [20, 5], branchWords: ['brisbane'] },
    });
    expect(request(parseStockCommand('FST-M8-25, WIDGET-9 5'))).toEqual({
      kind: 'codes',
      codes: ['FST-M8-25', 'WIDGET-9'],
      question: { quantities: [undefined, 5], branchWords: [] },
    });
  });
});

describe('parseStockCommand: build checks and demand', () => {
  it.each<[string, unknown]>([
    ['PLANT-88 build 10', { kind: 'build', code: 'PLANT-88', quantity: 10, branchWords: [] }],
    [
      'PLANT-88 build 10 at perth',
      { kind: 'build', code: 'PLANT-88', quantity: 10, branchWords: ['perth'] },
    ],
    [
      'PLANT-88 BUILD 10pcs in perth airport',
      { kind: 'build', code: 'PLANT-88', quantity: 10, branchWords: ['perth', 'airport'] },
    ],
    ['demand', { kind: 'demand' }],
    ['DEMAND', { kind: 'demand' }],
  ])('%j', (text, expected) => {
    expect(request(parseStockCommand(text))).toEqual(expected);
  });

  it('without a number after build it reads as before; 0 is a usage problem', () => {
    expect(request(parseStockCommand('PLANT-88 build'))).toMatchObject({
      kind: 'question',
      branchWords: ['build'],
    });
    expect(error(parseStockCommand('PLANT-88 build 0'))).toMatch(/not a quantity/);
  });
});
