import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_CODES,
  extractItemCodes,
  looksLikeItemCode,
  MAX_MESSAGE_TEXT,
  sameCode,
} from '../../src/slack/codes.js';

describe('looksLikeItemCode', () => {
  it.each([
    'WIDGET-9',
    'AB12',
    'A1',
    'AB12/3',
    'BX-200.5',
    'PUMP_40',
    'Bx200X',
    'W9',
    'X3M',
    `A${'1'.repeat(39)}`,
  ])('%j is a code', (token) => {
    expect(looksLikeItemCode(token)).toBe(true);
  });

  it.each([
    ['a plain number', '12345'],
    ['a word', 'WIDGET'],
    ['one character', 'A'],
    ['over 40 characters', `A${'1'.repeat(40)}`],
    ['mostly lower case', 'mp3'],
    ['half lower case', 'Ab12'],
    ['camel-case product name', 'iPhone15'],
    ['a version', 'v1.2.3'],
    ['a time', '10AM'],
    ['a time with minutes', '9.30PM'],
    ['a time with a colon', '10:30'],
    ['a date with a month name', '12-JAN-2025'],
    ['a month and year', 'SEPT/25'],
    ['a numeric date', '2025-01-12'],
    ['a quantity with a unit', '40PCS'],
    ['a weight', '12KG'],
    ['a length (so the brand 3M is missed)', '3M'],
    ['an ordinal', '2ND'],
    ['a domain', 'AB12.com'],
    ['starts with punctuation', '-AB12'],
    ['ends with punctuation', 'AB12-'],
    ['has other characters', 'AB#12'],
    ['non-ASCII letters', 'ÄB12'],
  ])('%s (%j) is not a code', (_name, token) => {
    expect(looksLikeItemCode(token)).toBe(false);
  });
});

describe('extractItemCodes', () => {
  it.each<[string, string, string[]]>([
    ['finds codes in prose', 'Have we got 40 of WIDGET-9 and AB12/3?', ['WIDGET-9', 'AB12/3']],
    [
      'strips punctuation around codes',
      '(WIDGET-9), "AB12". [PUMP_40]!',
      ['WIDGET-9', 'AB12', 'PUMP_40'],
    ],
    ['splits on commas and semicolons', 'WIDGET-9,AB12;CD34', ['WIDGET-9', 'AB12', 'CD34']],
    [
      'dedupes ignoring case, keeping the first spelling',
      'WIDGET-9 AB12 Widget-9 WIDGET-9',
      ['WIDGET-9', 'AB12'],
    ],
    ['drops user mentions', '<@U012ABCDEF> <@W0ABC12|AB12> please check WX-1', ['WX-1']],
    ['drops channel links', 'see <#C123ABC45|ch-9X> and <C987654321|> for ZZ-9', ['ZZ-9']],
    ['drops special and group mentions', '<!here> <!subteam^S0AB12|@AB12> GG-1', ['GG-1']],
    ['keeps a link label', 'order <https://erp.example/i/42|WIDGET-9> now', ['WIDGET-9']],
    ['does not mine bare link targets', 'see <https://erp.example/items/WIDGET-9>', []],
    ['drops mailto links', '<mailto:AB12@acme.com|AB12@acme.com> CD-3', ['CD-3']],
    [
      'ignores raw URLs and e-mail addresses',
      'https://x.io/AB12 www.AB34.io AB56@x.io AB-7',
      ['AB-7'],
    ],
    ['removes emoji', ':package: :a1: :white_check_mark: X1-Y', ['X1-Y']],
    ['keeps a code written between colons in capitals', 'code:AB12:', ['AB12']],
    [
      'removes bold, strike and code formatting',
      '*WIDGET-9* ~AB12~ `CD34` ```EF56```',
      ['WIDGET-9', 'AB12', 'CD34', 'EF56'],
    ],
    ['removes italic underscores at the edges only', '_WIDGET-9_ PUMP_40', ['WIDGET-9', 'PUMP_40']],
    ['removes quote markers', '&gt; WIDGET-9\n&gt;AB12', ['WIDGET-9', 'AB12']],
    ['decodes entities', 'AB12&amp;CD34 &lt;EF56&gt;', ['AB12', 'CD34', 'EF56']],
    ['skips times, dates and quantities', 'at 10:30AM on 12-JAN-2025 send 40PCS of AB-1', ['AB-1']],
    ['skips numbers and words', 'we need 40 widgets by Tuesday', []],
    ['empty text', '', []],
  ])('%s', (_name, text, expected) => {
    expect(extractItemCodes(text)).toEqual(expected);
  });

  it('returns at most five by default, in order of appearance', () => {
    const text = 'A1 B2 C3 D4 E5 F6 G7';
    expect(extractItemCodes(text)).toEqual(['A1', 'B2', 'C3', 'D4', 'E5']);
    expect(DEFAULT_MAX_CODES).toBe(5);
  });

  it('honours max, and gives nothing for a max of zero or less', () => {
    expect(extractItemCodes('A1 B2 C3', 2)).toEqual(['A1', 'B2']);
    expect(extractItemCodes('A1 B2 C3', 0)).toEqual([]);
    expect(extractItemCodes('A1 B2 C3', -3)).toEqual([]);
    expect(extractItemCodes('A1 B2 C3', 2.9)).toEqual(['A1', 'B2']);
  });

  it('reads the Slack example message shortcut payload without inventing codes', () => {
    expect(
      extractItemCodes("World's smallest big cat! <https://youtube.com/watch?v=W86cTIoMv2U>"),
    ).toEqual([]);
  });

  it('treats a non-string from a loose caller as no codes', () => {
    expect(extractItemCodes(undefined as unknown as string)).toEqual([]);
  });
});

describe('extractItemCodes properties', () => {
  const fragment = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.constantFrom(
      'WIDGET-9',
      'widget-9',
      'AB12',
      'ab12',
      '<@U1|AB12>',
      '<#C1|CD34>',
      '<https://x/EF56|GH78>',
      '<https://x/IJ90>',
      ':a1:',
      '*',
      '_',
      '`',
      '&gt;',
      '&amp;',
      '10:30AM',
      'x@AB12.io',
      '\n',
      '\u200b',
    ),
  );
  const message = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(' '));

  it('returns at most max distinct codes that each occur in the message and look like codes', () => {
    fc.assert(
      fc.property(message, fc.integer({ min: -2, max: 8 }), (text, max) => {
        const codes = extractItemCodes(text, max);
        expect(codes.length).toBeLessThanOrEqual(Math.max(0, max));
        expect(new Set(codes.map((code) => code.toUpperCase())).size).toBe(codes.length);
        for (const code of codes) {
          expect(text).toContain(code);
          expect(looksLikeItemCode(code)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never returns a mention, a channel or a bare link target', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][A-Z0-9]{1,10}[0-9]$/), (id) => {
        const text = `<@${id}> <#${id}> <!subteam^${id}> <https://x.example/${id}>`;
        expect(extractItemCodes(text)).toEqual([]);
      }),
    );
  });

  it('finds every code-shaped token planted in prose, in order', () => {
    // Generated codes that the heuristic accepts (it rejects e.g. `JAN-0` as a date).
    const code = fc
      .stringMatching(/^[A-Z]{1,5}[-/._]?[0-9]{1,4}[A-Za-z]?$/)
      .filter(looksLikeItemCode);
    const prose = fc.constantFrom('please check', 'and', 'we need 40 of', 'ok?', '');
    fc.assert(
      fc.property(
        fc.uniqueArray(code, { maxLength: 5, selector: (c) => c.toUpperCase() }),
        prose,
        (codes, filler) => {
          const text = codes.map((c) => `${filler} ${c}`).join(', ');
          expect(extractItemCodes(text)).toEqual(codes);
        },
      ),
    );
  });

  it('never throws on huge messages, and reads only their first 4,000 characters', () => {
    const filler = 'lorem ipsum <@U1> :smile: '.repeat(20_000);
    expect(extractItemCodes(`AB12 ${filler} CD34`)).toEqual(['AB12']);
    expect(extractItemCodes('x'.repeat(200_000))).toEqual([]);
  });

  it('drops the word the 4,000-character limit falls in, never looking up half a code', () => {
    const head = `AB12 ${'x '.repeat(1996)} `;
    // `WIDGET-99` starts two characters before the limit: `WI` must not become a lookup.
    expect(head.length).toBe(MAX_MESSAGE_TEXT - 2);
    expect(extractItemCodes(`${head}WIDGET-99 EF56`)).toEqual(['AB12']);
    // A code that ends exactly at the limit is whole, so it counts.
    expect(extractItemCodes(`${head.slice(2)}CD34 EF56`)).toEqual(['CD34']);
  });
});

describe('extractItemCodes with the codes the catalogue knows', () => {
  const known = ['WIDGET-9', 'CAFÉ-01'];
  const knownCode = (piece: string) => known.find((code) => sameCode(code, piece));

  it('finds lower-case codes it knows, spelled as the ERP spells them, and no other word', () => {
    expect(extractItemCodes('need widget-9 and mp3 files', 5, { knownCode })).toEqual(['WIDGET-9']);
    expect(extractItemCodes('need widget-9', 5)).toEqual([]);
  });

  it('reads accented codes without their accents, or as the ERP spells them', () => {
    expect(extractItemCodes('WÍDGET-9 please', 5)).toEqual(['WIDGET-9']);
    expect(extractItemCodes('is CAFÉ-01 in?', 5, { knownCode })).toEqual(['CAFÉ-01']);
    expect(extractItemCodes('is cafe-01 in?', 5, { knownCode })).toEqual(['CAFÉ-01']);
  });

  it('asks the index a bounded number of times however long the message', () => {
    let asks = 0;
    const counting = (piece: string) => {
      asks += 1;
      return knownCode(piece);
    };
    extractItemCodes(Array.from({ length: 500 }, (_, i) => `ab${i}`).join(' '), 5, {
      knownCode: counting,
    });
    expect(asks).toBeLessThanOrEqual(20);
  });
});

describe('a lower-case code on a fresh start (the index still filling)', () => {
  it('is offered upper-cased when written with a separator, and only then', () => {
    const fresh = { knownCode: () => undefined, upperWhenUnknown: true };
    expect(extractItemCodes('is widget-9 in?', 5, fresh)).toEqual(['WIDGET-9']);
    expect(extractItemCodes('is widget-9 in?', 5, { knownCode: () => undefined })).toEqual([]);
    expect(extractItemCodes('my mp3 player and v1 of it', 5, fresh)).toEqual([]);
  });
});
