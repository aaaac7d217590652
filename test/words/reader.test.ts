import { describe, expect, it } from 'vitest';
import { parseContactCommand, parseStockCommand } from '../../src/slack/parser.js';
import { readSentence } from '../../src/words/reader.js';
import { commandFor, EMPTY_WORDS_INDEX } from '../../src/words/reading.js';
import { sandboxIndex, tally } from './corpus.js';
import { OWN_CORPUS } from './ownCorpus.js';
import { SHARED_SAMPLE } from './sample.js';

/** A fresh start: the index has nothing yet. */
const EMPTY_INDEX = EMPTY_WORDS_INDEX;

const WARM = sandboxIndex();
const INDEXES = {
  'a complete index that knows the branches': WARM,
  'an index still filling': sandboxIndex({ complete: false }),
  'an index that has seen no branch yet': sandboxIndex({ branches: false }),
};

describe('the shared sample', () => {
  it('resolves every sentence as expected on a warm index, none wrongly', () => {
    const result = tally(SHARED_SAMPLE, (sentence) => readSentence(sentence, WARM));
    expect(result.misses).toEqual([]);
    expect(result.correct).toBe(SHARED_SAMPLE.length);
  });

  for (const [name, index] of Object.entries(INDEXES)) {
    it(`resolves nothing wrongly with ${name}`, () => {
      const result = tally(SHARED_SAMPLE, (sentence) => readSentence(sentence, index));
      expect(result.misses.filter((miss) => miss.verdict === 'wrong')).toEqual([]);
    });
  }

  it('resolves nothing wrongly on a fresh start (an empty index): it asks back instead', () => {
    const result = tally(SHARED_SAMPLE, (sentence) => readSentence(sentence, EMPTY_INDEX));
    expect(result.misses.filter((miss) => miss.verdict === 'wrong')).toEqual([]);
  });
});

describe('our own corpus', () => {
  for (const [name, index] of Object.entries(INDEXES)) {
    it(`resolves nothing wrongly with ${name}`, () => {
      const result = tally(OWN_CORPUS, (sentence) => readSentence(sentence, index));
      expect(result.misses.filter((miss) => miss.verdict === 'wrong')).toEqual([]);
    });
  }

  it('resolves nothing wrongly on a fresh start (an empty index): it asks back instead', () => {
    const result = tally(OWN_CORPUS, (sentence) => readSentence(sentence, EMPTY_INDEX));
    expect(result.misses.filter((miss) => miss.verdict === 'wrong')).toEqual([]);
  });

  it('holds at least 150 sentences with the shared sample', () => {
    expect(OWN_CORPUS.length + SHARED_SAMPLE.length).toBeGreaterThanOrEqual(150);
  });

  it('resolves at least 95% correctly on a warm index', () => {
    const result = tally(OWN_CORPUS, (sentence) => readSentence(sentence, WARM));
    expect(result.correct / OWN_CORPUS.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe('readSentence', () => {
  it('offers at most three candidates when several items match', () => {
    const reading = readSentence('blue widgets', WARM);
    expect(reading.kind).toBe('not_sure');
    if (reading.kind !== 'not_sure') return;
    expect(reading.candidates.length).toBe(3);
    expect(reading.total).toBeGreaterThan(3);
  });

  it('carries the quantity and branch of a sentence it asks back about', () => {
    const reading = readSentence('have we got 20 WIDGT-9 in perth', WARM);
    expect(reading).toMatchObject({
      kind: 'not_sure',
      reason: 'near_codes',
      quantity: 20,
      branchWords: ['perth'],
    });
  });

  it('never throws, whatever the text', () => {
    const odd = [
      '',
      ' ',
      '<<<>>>',
      '&lt;&gt;',
      '-'.repeat(10_000),
      '\u202E\u0000x',
      '9'.repeat(400),
    ];
    for (const text of odd) expect(() => readSentence(text, WARM)).not.toThrow();
  });

  it('reads a watch request as a watch, with the direction and threshold', () => {
    const reading = readSentence('alert me when WIDGET-9 &lt; 10', WARM);
    expect(reading).toEqual({
      kind: 'request',
      request: {
        kind: 'watch',
        code: 'WIDGET-9',
        direction: 'below',
        threshold: 10,
        branchWords: [],
      },
    });
  });
});

describe('commandFor: the command text the grammar reads as the same request', () => {
  it('gives /stock a question with quantity and branch', () => {
    const command = commandFor({
      kind: 'item',
      code: 'WIDGET-9',
      quantity: 50,
      branchWords: ['perth'],
    });
    expect(command).toEqual({ command: '/stock', text: 'WIDGET-9 50 perth' });
    const parsed = parseStockCommand(command?.text ?? '');
    expect(parsed).toMatchObject({
      ok: true,
      request: { kind: 'question', code: 'WIDGET-9', quantity: 50, branchWords: ['perth'] },
    });
  });

  it('gives /stock several codes and a watch', () => {
    const codes = commandFor({ kind: 'codes', codes: ['WIDGET-9', 'WIDGET-90'] });
    expect(parseStockCommand(codes?.text ?? '')).toMatchObject({
      request: { kind: 'codes', codes: ['WIDGET-9', 'WIDGET-90'] },
    });
    const watch = commandFor({
      kind: 'watch',
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 20,
      branchWords: ['perth'],
    });
    expect(parseStockCommand(watch?.text ?? '')).toMatchObject({
      request: {
        kind: 'watch',
        code: 'WIDGET-9',
        direction: 'below',
        threshold: 20,
        branchWords: ['perth'],
      },
    });
  });

  it('gives /contact a code with people words, and leaves account words with people words to the caller', () => {
    const people = commandFor({
      kind: 'contact',
      account: { code: 'ACME01' },
      peopleWords: ['account'],
    });
    expect(parseContactCommand(people?.text ?? '')).toMatchObject({
      request: { kind: 'people', code: 'ACME01', peopleWords: ['account'] },
    });
    expect(
      commandFor({ kind: 'contact', account: { words: ['acme'] }, peopleWords: ['jane'] }),
    ).toBeUndefined();
  });
});
