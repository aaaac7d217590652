/**
 * The vocabulary's "starts near a typed word" answers exactly what comparing the typed word
 * with every word's start (an edit distance each) answers, sorted array and pending words
 * alike.
 */
import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/catalogue/editDistance.js';
import { Vocabulary } from '../../src/catalogue/vocabulary.js';

const WORDS = [
  'sprocket',
  'seal',
  'sealkit',
  'se',
  'widget',
  'widgets',
  'wid',
  '0009',
  'wid51870',
  'gasket',
  'bolt',
  'blot',
  'zinc',
  'cafe',
  'a',
];

function bruteForce(words: readonly string[], typed: string, max: number): string[] {
  const starts = new Set(words.map((w) => w.slice(0, typed.length)));
  return [...starts].filter((s) => editDistance(typed, s, max) <= max).sort();
}

describe('Vocabulary.startsNear', () => {
  const typedWords = ['zzzz', 'sprok', 'spro', 'sael', 'wdget', 'widegt', 'bo', 'blt', 'se', 'a'];

  it.each([
    ['sorted', 1_000_000],
    ['pending', 0],
  ])('matches an edit distance per word (%s)', (_, advance) => {
    let now = 0;
    const vocabulary = new Vocabulary(() => now);
    vocabulary.add(WORDS);
    now += advance;
    for (const typed of typedWords) {
      for (const max of [0, 1, 2]) {
        expect([...vocabulary.startsNear(typed, max)].sort(), `${typed} ${max}`).toEqual(
          bruteForce(WORDS, typed, max),
        );
      }
    }
  });

  it('stays exact when the same words are added again and again (a refresh, no keystrokes)', () => {
    const vocabulary = new Vocabulary(() => 0);
    for (let i = 0; i < 500; i += 1) vocabulary.add(WORDS);
    for (const typed of typedWords) {
      expect([...vocabulary.startsNear(typed, 1)].sort(), typed).toEqual(
        bruteForce(WORDS, typed, 1),
      );
    }
  });

  it('holds a bounded number of words awaiting sorting, with no keystroke to merge them', () => {
    const vocabulary = new Vocabulary(() => 0);
    const many = Array.from({ length: 50_000 }, (_, i) => `word${i}`);
    for (let i = 0; i < 3; i += 1) vocabulary.add(many);
    expect(vocabulary.pendingCount).toBeLessThan(2_000);
    expect([...vocabulary.startsNear('word4999', 0)]).toEqual(['word4999']);
    expect([...vocabulary.startsNear('wrd49999', 1)].sort()).toEqual(
      bruteForce(many, 'wrd49999', 1),
    );
  });

  it('merges a bulk load once, at its end, and finds what it would have found', () => {
    const vocabulary = new Vocabulary(() => 0);
    const many = Array.from({ length: 50_000 }, (_, i) => `word${i}`);
    let waiting = 0;
    vocabulary.deferred(() => {
      vocabulary.add(many);
      waiting = vocabulary.pendingCount;
    });
    expect(waiting).toBe(50_000);
    expect(vocabulary.pendingCount).toBe(0);
    expect([...vocabulary.startsNear('wrd49999', 1)].sort()).toEqual(
      bruteForce(many, 'wrd49999', 1),
    );
  });

  it('knows nothing after clear', () => {
    const vocabulary = new Vocabulary(() => 0);
    vocabulary.add(WORDS);
    vocabulary.clear();
    expect(vocabulary.startsNear('seal', 1).size).toBe(0);
  });
});
