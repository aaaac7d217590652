/**
 * A sentence cut into words the reader can classify: each keeps its spelling as typed (codes
 * are sent as typed) and a folded form (lower case, no accents, no apostrophe ending) that the
 * vocabulary is matched against. Linear in the text, which is cut to `MAX_SENTENCE` first.
 */
import { withoutAccents } from './codeShape.js';

/** The longest sentence read, in UTF-16 code units: a question, not a price list. */
const MAX_SENTENCE = 400;
/** The most words read from one sentence. */
const MAX_TOKENS = 40;

export interface Token {
  /** As typed, without the punctuation around it (`WIDGET-9`, `CAFÉ-01`). */
  raw: string;
  /** Lower case, accents and `'s` endings dropped (`what's` -> `what`). */
  word: string;
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&' };
// Punctuation around a word; `-`, `/`, `.` and `_` inside a code stay.
const EDGE_CHARACTERS = new Set([...`"'\`“”‘’(){}[]*_~!?,;:.…`]);
const APOSTROPHE_END = /'(?:s|ve|re|ll|d|m|t)$/;
// `<10`, `>5`, `<=10`: a direction glued to its number.
const GLUED_DIRECTION = /^([<>])=?(\d+)$/;

/** The sentence's words, at most `MAX_TOKENS`. */
export function tokenize(sentence: string): Token[] {
  const text = String(sentence)
    .slice(0, MAX_SENTENCE)
    .normalize('NFC')
    .replace(/&(?:lt|gt|amp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/[’‘ʼ′]/g, "'")
    // A non-breaking or typographic hyphen inside a code is the code's `-` (`WIDGET‑9`).
    .replace(/[\u2010\u2011\u2012\u2212\uFE63\uFF0D]/g, '-');
  const tokens: Token[] = [];
  for (const piece of text.split(/[\s,]+/)) {
    if (tokens.length >= MAX_TOKENS) break;
    const raw = trimEdges(piece);
    if (raw === '') {
      // A lone `<` or `>` is a direction (`WIDGET-9 < 10`); other punctuation is nothing.
      const bare = piece.trim();
      if (bare === '<' || bare === '>' || bare === '<=' || bare === '>=') {
        tokens.push({ raw: bare.charAt(0), word: bare.charAt(0) });
      }
      continue;
    }
    const glued = GLUED_DIRECTION.exec(raw);
    if (glued?.[1] !== undefined && glued[2] !== undefined) {
      tokens.push({ raw: glued[1], word: glued[1] }, { raw: glued[2], word: glued[2] });
      continue;
    }
    tokens.push({ raw, word: fold(raw) });
  }
  return tokens;
}

/** What the vocabulary is matched against. */
function fold(raw: string): string {
  return withoutAccents(raw).toLowerCase().replace(APOSTROPHE_END, '');
}

/** Letters only (a word that may name a branch, an account or an item). */
export function isWordLike(word: string): boolean {
  return /^[\p{L}][\p{L}'&-]*$/u.test(word);
}

/** The piece without punctuation at its ends: a loop, so a long run costs one pass. */
function trimEdges(piece: string): string {
  let start = 0;
  let end = piece.length;
  while (start < end && EDGE_CHARACTERS.has(piece.charAt(start))) start += 1;
  while (end > start && EDGE_CHARACTERS.has(piece.charAt(end - 1))) end -= 1;
  return piece.slice(start, end);
}
