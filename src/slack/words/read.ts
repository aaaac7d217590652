/**
 * A sentence read as a person typed it in Slack: markup (the app's own mention) resolved, the
 * text cleaned, and the reader (src/words/) asking the app's catalogue index.
 */
import { BranchNames, catalogueWordsIndex } from '../../words/catalogueIndex.js';
import { readSentence } from '../../words/reader.js';
import { EMPTY_WORDS_INDEX, type Reading, type WordsIndex } from '../../words/reading.js';
import type { ItemDeps, WordsDeps } from '../deps.js';
import { sanitizeInput, stripSlackMarkup } from '../input.js';

/** The longest sentence read: the reader reads no more. */
const MAX_SENTENCE = 400;

const indexes = new WeakMap<object, WordsIndex>();

/** The reader's view of the app's catalogue index (one per catalogue). */
export function wordsIndexOf(deps: Pick<ItemDeps, 'catalogue'> & WordsDeps): WordsIndex {
  const { catalogue } = deps;
  // Before the catalogue exists (tests, a misconfigured start): codes are read as typed.
  if (!catalogue) return EMPTY_WORDS_INDEX;
  let index = indexes.get(catalogue);
  if (!index) {
    index = catalogueWordsIndex(
      { store: catalogue.store, isComplete: () => catalogue.isComplete() },
      deps.words?.branchNames ?? new BranchNames(),
    );
    indexes.set(catalogue, index);
  }
  return index;
}

/**
 * The sentence as a person typed it, read. Slack's entities are decoded once, by the reader:
 * what a person typed as `&lt;!here&gt;` stays those characters.
 */
export function readWords(deps: Pick<ItemDeps, 'catalogue'> & WordsDeps, text: string): Reading {
  const markupFree = stripSlackMarkup(text, { bareLinks: 'target', entities: 'keep' });
  const { text: clean } = sanitizeInput(markupFree, MAX_SENTENCE);
  return readSentence(clean, wordsIndexOf(deps));
}
