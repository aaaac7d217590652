/**
 * The sentence reader (src/words/): how its readings compare with what the corpus expects
 * (correct, asked back, wrongly resolved) on the sandbox's catalogue in three states of the
 * index, and what reading a sentence costs against parsing a command of the same request (the
 * baseline: `parseStockCommand`, the grammar every command already pays for).
 */
import { parseContactCommand, parseStockCommand } from '../src/slack/parser.js';
import { readSentence } from '../src/words/reader.js';
import { commandFor, EMPTY_WORDS_INDEX, type WordsIndex } from '../src/words/reading.js';
import { type Expected, sandboxIndex, tally } from '../test/words/corpus.js';
import { OWN_CORPUS } from '../test/words/ownCorpus.js';
import { SHARED_SAMPLE } from '../test/words/sample.js';

type Corpus = ReadonlyArray<readonly [string, Expected, Expected?]>;

export interface WordsFigures {
  report: string;
  /** Wrong resolutions on the shared sample, warm index (the target is 0). */
  wrongOnSample: number;
  /** Median and 99th percentile of one sentence's reading, in microseconds. */
  medianUs: number;
  p99Us: number;
  /** Reading a sentence ÷ parsing the command it stands for (median against median). */
  ratio: number;
}

const INDEXES: ReadonlyArray<readonly [string, () => WordsIndex]> = [
  ['complete, branch names known', () => sandboxIndex()],
  ['still filling', () => sandboxIndex({ complete: false })],
  ['no branch names seen yet', () => sandboxIndex({ branches: false })],
  // A fresh start: the index holds nothing yet, so codes are read as typed.
  ['empty (a fresh start)', () => EMPTY_WORDS_INDEX],
];

function corpusRows(): { lines: string[]; wrongOnSample: number } {
  const lines = [
    '| corpus | index | sentences | correct | asks back | wrong |',
    '|---|---|---:|---:|---:|---:|',
  ];
  let wrongOnSample = 0;
  for (const [indexName, build] of INDEXES) {
    const index = build();
    for (const [name, corpus] of [
      ['shared sample', SHARED_SAMPLE],
      ['our own', OWN_CORPUS],
    ] as const) {
      const result = tally(corpus, (sentence) => readSentence(sentence, index));
      if (name === 'shared sample' && indexName.startsWith('complete'))
        wrongOnSample = result.wrong;
      lines.push(
        `| ${name} | ${indexName} | ${corpus.length} | ${result.correct} | ${result.asks} | ${result.wrong} |`,
      );
    }
  }
  return { lines, wrongOnSample };
}

/** Microseconds per call of `run` on each input, each timed over `rounds` calls. */
function timeEach(inputs: readonly string[], rounds: number, run: (text: string) => unknown) {
  for (const input of inputs) for (let i = 0; i < rounds; i += 1) run(input);
  return inputs.map((input) => {
    const started = performance.now();
    for (let i = 0; i < rounds; i += 1) run(input);
    return ((performance.now() - started) * 1000) / rounds;
  });
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const at = (values: number[], share: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(share * values.length))] ?? Number.NaN;

export function runWordsBench(quick: boolean): WordsFigures {
  const { lines, wrongOnSample } = corpusRows();
  const index = sandboxIndex();
  const corpus: Corpus = [...SHARED_SAMPLE, ...OWN_CORPUS];
  const sentences = corpus.map(([sentence]) => sentence);
  // The baseline: the command text each sentence stands for, parsed by the command's grammar.
  const commands = sentences.map((sentence) => {
    const reading = readSentence(sentence, index);
    const command = reading.kind === 'request' ? commandFor(reading.request) : undefined;
    return command ?? { command: '/stock' as const, text: sentence };
  });
  const rounds = quick ? 50 : 500;
  const reading = timeEach(sentences, rounds, (text) => readSentence(text, index));
  const parsing = commands.map(
    (command) =>
      timeEach([command.text], rounds, (text) =>
        command.command === '/contact' ? parseContactCommand(text) : parseStockCommand(text),
      )[0] ?? Number.NaN,
  );
  const medianUs = at(reading, 0.5);
  const p99Us = at(reading, 0.99);
  const ratio = medianUs / at(parsing, 0.5);
  const us = (value: number) => `${value.toFixed(1)} µs`;
  const report = [
    `${corpus.length} sentences (the shared sample's ${SHARED_SAMPLE.length} and our own ${OWN_CORPUS.length}), read against the sandbox's ${'2,000'}-item catalogue:`,
    '',
    ...lines,
    '',
    '| one sentence | median | p99 | max |',
    '|---|---:|---:|---:|',
    `| read by the sentence reader | ${us(medianUs)} | ${us(p99Us)} | ${us(at(reading, 1))} |`,
    `| its command parsed by the grammar (baseline) | ${us(at(parsing, 0.5))} | ${us(at(parsing, 0.99))} | ${us(at(parsing, 1))} |`,
    '',
    `Reading costs ${ratio.toFixed(1)}× parsing the command (median), each sentence timed over ${rounds} reads.`,
  ].join('\n');
  return { report, wrongOnSample, medianUs, p99Us, ratio };
}
