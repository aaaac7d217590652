import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cutToLength,
  hasSlackMarkup,
  MAX_COMMAND_LENGTH,
  sanitizeInput,
  stripSlackMarkup,
} from '../../src/slack/input.js';

describe('sanitizeInput', () => {
  it.each([
    ['plain text stays', 'WIDGET-9', 'WIDGET-9'],
    ['trims', '   WIDGET-9  ', 'WIDGET-9'],
    ['collapses runs of spaces', 'blue    widget', 'blue widget'],
    ['tab and newline become spaces', 'blue\twidget\nlarge', 'blue widget large'],
    ['CR LF and form feed become spaces', 'a\r\nb\fc\vd', 'a b c d'],
    ['NEL (C1 line break) becomes a space', 'a\u0085b', 'a b'],
    ['other C0 controls are removed', 'WID\u0000GET\u0007-9\u001b', 'WIDGET-9'],
    ['DEL and C1 controls are removed', 'AB\u007f\u0080\u009f12', 'AB12'],
    [
      'zero-width space, joiners, BOM, word joiner go',
      'W\u200bI\u200cD\u200dG\ufeffE\u2060T',
      'WIDGET',
    ],
    ['soft hyphen goes', 'WID\u00adGET', 'WIDGET'],
    ['bidi overrides and embeddings go', '\u202eWIDGET\u202c-\u202a9', 'WIDGET-9'],
    ['bidi isolates and marks go', '\u2066AB\u2069\u200e12\u200f\u061c', 'AB12'],
    ['tag characters (ASCII smuggling) go', 'AB\u{e0041}\u{e0042}12', 'AB12'],
    ['lone surrogates go', 'AB\ud800CD\udfff', 'ABCD'],
    ['paired surrogates (emoji) stay', 'AB 📦', 'AB 📦'],
    ['NBSP, em space, ideographic space are spaces', 'a\u00a0b\u2003c\u3000d', 'a b c d'],
    ['line and paragraph separators are spaces', 'a\u2028b\u2029c', 'a b c'],
    ['NFC composes decomposed letters', 'Cafe\u0301', 'Café'],
    ['composes across a removed zero-width character', 'e\u200b\u0301', 'é'],
    ['only invisible characters gives empty', '\u200b\u202e\u0000 \t', ''],
    ['path tricks are just characters', '../x %2F a?b AB#1', '../x %2F a?b AB#1'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeInput(input)).toEqual({ text: expected, cut: false });
  });

  it('cuts over-long text at the last word boundary and says so', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const { text, cut } = sanitizeInput(words);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(MAX_COMMAND_LENGTH);
    expect(words.startsWith(text)).toBe(true);
    expect(words[text.length]).toBe(' ');
  });

  it('keeps a word that ends exactly at the limit', () => {
    expect(sanitizeInput('abcd efgh ijkl', 9)).toEqual({ text: 'abcd efgh', cut: true });
  });

  it('cuts inside a word when no space is near the limit', () => {
    expect(sanitizeInput('x'.repeat(300))).toEqual({ text: 'x'.repeat(200), cut: true });
    expect(sanitizeInput(`a ${'y'.repeat(20)}`, 10)).toEqual({
      text: `a ${'y'.repeat(8)}`,
      cut: true,
    });
  });

  it('never splits a surrogate pair or strands a combining mark', () => {
    expect(sanitizeInput('ab📦', 3)).toEqual({ text: 'ab', cut: true });
    expect(sanitizeInput('abcé', 4)).toEqual({ text: 'abcé', cut: false });
    expect(sanitizeInput('abc\u0078\u0301', 4)).toEqual({ text: 'abc', cut: true });
  });

  it('measures after cleaning: invisible padding does not count', () => {
    expect(sanitizeInput(`${'\u200b'.repeat(500)}WIDGET-9`)).toEqual({
      text: 'WIDGET-9',
      cut: false,
    });
  });

  it('never throws, stays within max, and leaves no controls, invisibles or double spaces', () => {
    const unit = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('\u0000', '\t', '\n', '\u202e', '\u200b', '\ud800', '\u0301', ' ', '\u3000'),
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 40 }),
        fc.integer({ min: 0, max: 300 }),
        (parts, max) => {
          const { text, cut } = sanitizeInput(parts.join(''), max);
          expect(text.length).toBeLessThanOrEqual(max);
          expect(text).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}]/u);
          expect(text).not.toMatch(/\s\s|^\s|\s$|[^\S ]/);
          expect(text).toBe(text.normalize('NFC'));
          expect(() => encodeURIComponent(text)).not.toThrow();
          if (!cut) expect(sanitizeInput(text, max)).toEqual({ text, cut: false });
        },
      ),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (input) => {
        const once = sanitizeInput(input).text;
        expect(sanitizeInput(once)).toEqual({ text: once, cut: false });
      }),
    );
  });

  it('copes with huge strings', () => {
    const huge = `${'AB\u0000 \u202e'.repeat(200_000)}`;
    const { text, cut } = sanitizeInput(huge);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(MAX_COMMAND_LENGTH);
  });
});

describe('cutToLength', () => {
  it('returns short text unchanged and cuts long text to the limit', () => {
    expect(cutToLength('abc', 5)).toBe('abc');
    expect(cutToLength('abcdef', 4)).toBe('abcd');
    expect(cutToLength('abcdef', 0)).toBe('');
  });

  it('never leaves half a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 50 }), fc.nat(60), (text, max) => {
        const cut = cutToLength(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(text.startsWith(cut)).toBe(true);
        expect(cut).not.toMatch(/[\ud800-\udbff]$/);
      }),
    );
  });
});

describe('stripSlackMarkup', () => {
  // Dropped markup leaves spaces; compare with whitespace collapsed, as the callers do.
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

  it.each([
    ['user mention with label is dropped', 'hi <@U123|bob> WIDGET-9', 'hi WIDGET-9'],
    ['user mention without label is dropped', '<@U012ABCDEF>', ''],
    ['enterprise user mention is dropped', '<@W012ABCDEF|ann>', ''],
    ['public channel link is dropped', '<#C123|general> x', 'x'],
    ['private channel (id only) is dropped', '<C987654321|> x', 'x'],
    ['special mentions are dropped', '<!here> <!channel> <!everyone>', ''],
    ['user group mention is dropped', '<!subteam^S123|@team>', ''],
    ['date is dropped', '<!date^1392734382^{date_short}|Feb 18, 2014>', ''],
    ['mailto link is dropped', '<mailto:bob@acme.com|bob@acme.com>', ''],
    ['labelled link becomes its label', '<https://x.example/a|WIDGET-9>', 'WIDGET-9'],
    ['bare link keeps its target by default', '<https://x.example/a>', 'https://x.example/a'],
    ['link with empty label keeps its target', '<https://x.example/a|>', 'https://x.example/a'],
    ['entities are decoded', 'a &amp; b &lt;c&gt;', 'a & b <c>'],
    ['entities are decoded once', '&amp;lt;', '&lt;'],
    ['a lone < stays a character', 'a < b', 'a < b'],
    ['markup does not fuse neighbours', 'AB<@U1>12', 'AB 12'],
  ])('%s', (_name, input, expected) => {
    expect(squash(stripSlackMarkup(input))).toBe(expected);
  });

  it('drops bare links when asked to', () => {
    const text = 'see <https://x.example/W-9> and <https://y|W-10>';
    expect(squash(stripSlackMarkup(text, { bareLinks: 'drop' }))).toBe('see and W-10');
  });

  it('never leaves mentions behind, whatever their label', () => {
    // Slack encodes `<` and `>` inside labels, so labels never contain them.
    const label = fc.string({ maxLength: 200 }).map((text) => text.replace(/[<>]/g, ''));
    fc.assert(
      fc.property(label, (text) => {
        const stripped = stripSlackMarkup(`<@U1|${text}> <#C1|${text}> <!here>`);
        expect(stripped).not.toMatch(/<[@#!]/);
        expect(squash(stripped)).toBe('');
      }),
    );
  });

  it('hasSlackMarkup spots markup', () => {
    expect(hasSlackMarkup('<@U1>')).toBe(true);
    expect(hasSlackMarkup('a &lt; b')).toBe(false);
  });
});
