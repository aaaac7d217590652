/**
 * "can we build 10 PLANT-88?": the build check read from a sentence, as `/stock PLANT-88 build
 * 10` asks it; without a quantity or a single code it stays a stock question.
 */
import { describe, expect, it } from 'vitest';
import { parseStockCommand } from '../../src/slack/parser.js';
import { readSentence } from '../../src/words/reader.js';
import { commandFor, EMPTY_WORDS_INDEX } from '../../src/words/reading.js';
import { sandboxIndex } from './corpus.js';

const WARM = sandboxIndex();

describe('build questions in words', () => {
  it('reads the build check with its quantity and branch, on a warm and an empty index', () => {
    for (const index of [WARM, EMPTY_WORDS_INDEX]) {
      expect(readSentence('can we build 10 PLANT-88?', index)).toEqual({
        kind: 'request',
        request: { kind: 'build', code: 'PLANT-88', quantity: 10, branchWords: [] },
      });
      expect(readSentence('could we build 5 WIDGET-9 at perth', index)).toEqual({
        kind: 'request',
        request: { kind: 'build', code: 'WIDGET-9', quantity: 5, branchWords: ['perth'] },
      });
    }
  });

  it('stands for the command text the grammar reads back the same', () => {
    const reading = readSentence('could we build 5 WIDGET-9 at perth', WARM);
    if (reading.kind !== 'request') throw new Error('not read');
    const command = commandFor(reading.request);
    expect(command).toEqual({ command: '/stock', text: 'WIDGET-9 build 5 at perth' });
    expect(parseStockCommand(command?.text ?? '')).toMatchObject({
      ok: true,
      request: { kind: 'build', code: 'WIDGET-9', quantity: 5, branchWords: ['perth'] },
    });
  });

  it('without a whole quantity, or with two codes, is not a build check', () => {
    expect(readSentence('can we build PLANT-88?', WARM)).not.toMatchObject({
      request: { kind: 'build' },
    });
    expect(readSentence('can we build 2.5 PLANT-88?', WARM)).not.toMatchObject({
      request: { kind: 'build' },
    });
    expect(readSentence('can we build 10 PLANT-88 and WIDGET-9?', WARM)).not.toMatchObject({
      request: { kind: 'build' },
    });
    expect(readSentence('have we got 50 WIDGET-9 in perth?', WARM)).toMatchObject({
      request: { kind: 'item', code: 'WIDGET-9', quantity: 50 },
    });
  });
});
