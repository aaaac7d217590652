import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncate } from '../../src/views/blocks.js';
import { codeSpan, escapeMrkdwn, escapeTruncated, oneLine } from '../../src/views/format.js';

describe('escapeMrkdwn', () => {
  it('escapes exactly &, < and >, & first', () => {
    expect(escapeMrkdwn('a & b <c> &lt;')).toBe('a &amp; b &lt;c&gt; &amp;lt;');
  });

  it('neutralises mentions and links', () => {
    expect(escapeMrkdwn('<!channel> <@U123> <https://x|y>')).toBe(
      '&lt;!channel&gt; &lt;@U123&gt; &lt;https://x|y&gt;',
    );
  });

  it('leaves styling characters, quotes and non-Latin text alone (Slack has no escape for them)', () => {
    expect(escapeMrkdwn('*bold* _it_ ~s~ "q" \'a\' 東京 Ελλάδα 🧪')).toBe(
      '*bold* _it_ ~s~ "q" \'a\' 東京 Ελλάδα 🧪',
    );
  });

  it('drops bidi embeddings, overrides and isolates, which would reorder our text after them', () => {
    expect(escapeMrkdwn('a \u202Eb\u202C \u2067c\u2069 صمام \u200F')).toBe('a b c صمام \u200F');
  });
});

describe('codeSpan', () => {
  it('wraps an escaped code in backticks, replacing inner backticks', () => {
    expect(codeSpan('A&B`<C>')).toBe('`A&amp;Bˋ&lt;C&gt;`');
  });

  it('shows a dash for an empty code', () => {
    expect(codeSpan('')).toBe('—');
  });
});

describe('escapeTruncated and oneLine', () => {
  it('cuts after escaping, never inside an entity', () => {
    expect(escapeTruncated('ab&&&&', 7)).toBe('ab…');
    expect(escapeTruncated('ab&&&&', 8)).toBe('ab&amp;…');
  });

  it('oneLine folds newlines and runs of spaces', () => {
    expect(oneLine('  Blue\n\nwidget \t x ', 100)).toBe('Blue widget x');
  });
});

describe('escapeTruncated on long text', () => {
  // It escapes only what can be shown; the answer must be the one escaping everything gives.
  const pieces = fc.constantFrom('a', ' ', '&', '<', '>', 'amp;', 'lt;', '\u202e', '\u{1F600}');
  it('cuts what escaping the whole text and cutting would', () => {
    fc.assert(
      fc.property(fc.string({ unit: pieces, maxLength: 60 }), fc.nat(70), (text, max) => {
        expect(escapeTruncated(text, max)).toBe(truncate(escapeMrkdwn(text), max));
      }),
      { numRuns: 2_000 },
    );
  });
});
