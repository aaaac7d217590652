/**
 * `npm run bench -- --write-docs` keeps docs/benchmarks.md's measured figures: each section of
 * the run (the app against bare Bolt, the lookup service against a naive client, the catalogue
 * index, the watches) owns one generated block between its own markers, so a run of one section
 * (`--only app`) replaces that block and leaves the others as they were measured.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** The sections a run can write, in the order the document shows them. */
export type BenchSection = 'app' | 'lookup' | 'catalogue' | 'watches' | 'words';

export const BENCH_DOC = 'docs/benchmarks.md';

export function beginMarker(section: BenchSection): string {
  return `<!-- bench:${section}:begin (npm run bench -- --write-docs) -->`;
}

export function endMarker(section: BenchSection): string {
  return `<!-- bench:${section}:end -->`;
}

/**
 * The document with one section's generated block replaced; the text around it, and every
 * other section's block, unchanged. A document without that section's two markers (in that
 * order, once each) is an error naming them: writing anywhere else would lose prose.
 */
export function replaceSection(doc: string, section: BenchSection, body: string): string {
  const begin = beginMarker(section);
  const end = endMarker(section);
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  const once = (marker: string, at: number) => at >= 0 && doc.indexOf(marker, at + 1) < 0;
  if (!once(begin, from) || !once(end, to) || to < from) {
    throw new Error(`${BENCH_DOC} needs the markers ${begin} and ${end}, once each, in order`);
  }
  return `${doc.slice(0, from + begin.length)}\n${body.trim()}\n${doc.slice(to)}`;
}

/** Writes the sections that ran into the document at `file`; the others keep their figures. */
export function writeBenchDoc(
  file: string,
  sections: ReadonlyArray<readonly [BenchSection, string]>,
): void {
  let doc = readFileSync(file, 'utf8');
  for (const [section, body] of sections) doc = replaceSection(doc, section, body);
  writeFileSync(file, doc);
}
