import type { KnownBlock } from '@slack/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkMessageLimits,
  LIMITS,
  truncate,
  truncateAtWord,
  truncatePlain,
} from '../../src/views/blocks.js';
import type { SlackMessage } from '../../src/views/message.js';

const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });
const message = (blocks: KnownBlock[], text = 'fallback'): SlackMessage => ({ text, blocks });
const button = (action_id: string, label = 'Go', value = 'v') => ({
  type: 'button' as const,
  action_id,
  text: { type: 'plain_text' as const, text: label },
  value,
});

describe('truncate', () => {
  it('returns short text unchanged', () => {
    expect(truncate('abc', 3)).toBe('abc');
  });

  it('ends with an ellipsis within the limit', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
  });

  it('never splits a surrogate pair', () => {
    expect(truncate('ab😀cd', 4)).toBe('ab…');
  });

  it('never splits an entity', () => {
    expect(truncate('ab&amp;cd', 6)).toBe('ab…');
    expect(truncate('ab&lt;cd', 7)).toBe('ab&lt;…');
  });

  it('never leaves one of our <…> tokens open', () => {
    expect(truncate('as of <!date^1^{time}|10:42 UTC> ok', 20)).toBe('as of …');
  });

  it('keeps any text within max (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.integer({ min: 1, max: 200 }),
        (text, max) => {
          const cut = truncate(text, max);
          expect(cut.length).toBeLessThanOrEqual(Math.max(max, 0));
          if (text.length <= max) expect(cut).toBe(text);
          else expect(cut.endsWith('…')).toBe(true);
          // A lone high surrogate before the ellipsis would be an invalid string for Slack.
          expect(cut).not.toMatch(/[\uD800-\uDBFF]…$/);
        },
      ),
    );
  });
});

describe('checkMessageLimits: one test per limit', () => {
  it('accepts a small valid message', () => {
    expect(checkMessageLimits(message([section('hello')]))).toEqual([]);
  });

  it(`blocks: ${LIMITS.blocks}`, () => {
    const blocks = Array.from({ length: LIMITS.blocks }, () => section('x'));
    expect(checkMessageLimits(message(blocks))).toEqual([]);
    expect(checkMessageLimits(message([...blocks, section('x')]))).toEqual([
      `${LIMITS.blocks + 1} blocks (max ${LIMITS.blocks})`,
    ]);
  });

  it(`section text: ${LIMITS.sectionText}`, () => {
    expect(checkMessageLimits(message([section('x'.repeat(LIMITS.sectionText))]))).toEqual([]);
    expect(checkMessageLimits(message([section('x'.repeat(LIMITS.sectionText + 1))]))).toContain(
      `blocks[0] (section): ${LIMITS.sectionText + 1} characters of section text (max ${LIMITS.sectionText})`,
    );
  });

  it(`section fields: ${LIMITS.sectionFields}, each ${LIMITS.fieldText}`, () => {
    const field = (text: string) => ({ type: 'mrkdwn' as const, text });
    const ok: KnownBlock = {
      type: 'section',
      fields: Array.from({ length: 10 }, () => field('f')),
    };
    const many: KnownBlock = {
      type: 'section',
      fields: Array.from({ length: 11 }, () => field('f')),
    };
    const long: KnownBlock = { type: 'section', fields: [field('x'.repeat(LIMITS.fieldText + 1))] };
    expect(checkMessageLimits(message([ok]))).toEqual([]);
    expect(checkMessageLimits(message([many]))).toEqual([
      'blocks[0] (section): 11 fields (max 10)',
    ]);
    expect(checkMessageLimits(message([long]))).toEqual([
      `blocks[0] (section): ${LIMITS.fieldText + 1} characters in fields[0] (max ${LIMITS.fieldText})`,
    ]);
  });

  it(`header: ${LIMITS.headerText}, plain_text only`, () => {
    const header = (text: string): KnownBlock => ({
      type: 'header',
      text: { type: 'plain_text', text },
    });
    expect(checkMessageLimits(message([header('x'.repeat(150))]))).toEqual([]);
    expect(checkMessageLimits(message([header('x'.repeat(151))]))).toEqual([
      'blocks[0] (header): 151 characters of header (max 150)',
    ]);
    const mrkdwnHeader = {
      type: 'header',
      text: { type: 'mrkdwn', text: 'x' },
    } as unknown as KnownBlock;
    expect(checkMessageLimits(message([mrkdwnHeader]))).toContain(
      'blocks[0] (header): header text must be plain_text',
    );
  });

  it(`button label ${LIMITS.buttonText}, value ${LIMITS.buttonValue}, action_id ${LIMITS.actionId}`, () => {
    const ok: KnownBlock = {
      type: 'actions',
      elements: [button('a', 'x'.repeat(75), 'v'.repeat(2000))],
    };
    expect(checkMessageLimits(message([ok]))).toEqual([]);
    const bad: KnownBlock = {
      type: 'actions',
      elements: [button('a'.repeat(256), 'x'.repeat(76), 'v'.repeat(2001))],
    };
    const problems = checkMessageLimits(message([bad]));
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/action_id too long/);
    expect(problems.join('\n')).toMatch(/button label too long/);
    expect(problems.join('\n')).toMatch(/button value of 2001 characters/);
  });

  it(`block_id: ${LIMITS.blockId}, unique`, () => {
    const withId = (block_id: string): KnownBlock => ({ ...section('x'), block_id }) as KnownBlock;
    expect(checkMessageLimits(message([withId('b'.repeat(255))]))).toEqual([]);
    expect(checkMessageLimits(message([withId('b'.repeat(256))]))).toEqual([
      'blocks[0] (section): 256 characters of block_id (max 255)',
    ]);
    expect(checkMessageLimits(message([withId('same'), withId('same')]))).toEqual([
      'blocks[1] (section): duplicate block_id',
    ]);
  });

  it(`actions elements: ${LIMITS.actionsElements}`, () => {
    const elements = Array.from({ length: 26 }, (_, i) => button(`a${i}`));
    expect(
      checkMessageLimits(message([{ type: 'actions', elements: elements.slice(0, 25) }])),
    ).toEqual([]);
    expect(checkMessageLimits(message([{ type: 'actions', elements }]))).toEqual([
      'blocks[0] (actions): 26 elements (max 25)',
    ]);
  });

  it(`context elements: ${LIMITS.contextElements}`, () => {
    const elements = Array.from({ length: 11 }, () => ({ type: 'mrkdwn' as const, text: 'c' }));
    expect(
      checkMessageLimits(message([{ type: 'context', elements: elements.slice(0, 10) }])),
    ).toEqual([]);
    expect(checkMessageLimits(message([{ type: 'context', elements }]))).toEqual([
      'blocks[0] (context): 11 elements (max 10)',
    ]);
  });

  it('action_ids are unique across the message', () => {
    const blocks: KnownBlock[] = [
      { type: 'actions', elements: [button('stock_view')] },
      { type: 'actions', elements: [button('stock_view')] },
    ];
    expect(checkMessageLimits(message(blocks))).toEqual([
      'blocks[1] (actions).elements[0]: duplicate action_id stock_view',
    ]);
  });

  it(`total text: ${LIMITS.totalText}`, () => {
    const five = Array.from({ length: 4 }, () => section('x'.repeat(3000)));
    expect(checkMessageLimits(message(five))).toEqual([]);
    expect(checkMessageLimits(message([...five, section('x')]))).toEqual([
      '12001 characters of block text (max 12000)',
    ]);
  });

  it(`any text object: ${LIMITS.textObject}, and never empty`, () => {
    const context = (text: string): KnownBlock => ({
      type: 'context',
      elements: [{ type: 'mrkdwn', text }],
    });
    expect(checkMessageLimits(message([context('x'.repeat(3001))]))).toEqual([
      'blocks[0] (context).elements[0]: text object of 3001 characters',
    ]);
    expect(checkMessageLimits(message([context('')]))).toEqual([
      'blocks[0] (context).elements[0]: empty text object',
    ]);
  });

  it(`text fallback: present, at most ${LIMITS.fallbackText}`, () => {
    expect(checkMessageLimits(message([section('x')], ''))).toEqual(['text fallback missing']);
    expect(checkMessageLimits(message([section('x')], 'x'.repeat(4000)))).toEqual([]);
    expect(checkMessageLimits(message([section('x')], 'x'.repeat(4001)))).toEqual([
      'text fallback of 4001 characters (max 4000)',
    ]);
  });
});

describe('truncatePlain', () => {
  it('cuts plain text without treating < or & as markup', () => {
    expect(truncatePlain('a < b and more', 8)).toBe('a < b a…');
    expect(truncatePlain('ab😀cd', 4)).toBe('ab…');
    expect(truncatePlain('short', 10)).toBe('short');
  });
});

describe('truncateAtWord', () => {
  it('ends at the last word boundary near the limit, without trailing punctuation', () => {
    expect(truncateAtWord('see the data sheet, for torque', 20)).toBe('see the data sheet…');
    expect(truncateAtWord('short enough', 20)).toBe('short enough');
  });

  it('cuts anywhere when no space is near the end (long codes, Japanese)', () => {
    expect(truncateAtWord('a ABCDEFGHIJKLMNOP', 10)).toBe('a ABCDEFG…');
    expect(truncateAtWord('ステンレス製六角ボルト', 6)).toBe('ステンレス…');
  });

  it('never leaves a broken entity or an open token of ours', () => {
    expect(truncateAtWord('Smith &amp; Co Limited', 14)).toBe('Smith &amp;…');
    expect(truncateAtWord('as of <!date^1^{date_short} {time}|2 Mar 10:42 UTC> ok', 30)).toBe(
      'as of…',
    );
  });

  it('works for plain_text too', () => {
    expect(truncateAtWord('a < b and more', 10, truncatePlain)).toBe('a < b and…');
  });
});
