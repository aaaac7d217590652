/**
 * `npm run bench -- --write-docs` replaces only the figures of the sections that ran, between
 * their markers in docs/benchmarks.md, and refuses to write when the markers are not there.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BENCH_DOC,
  type BenchSection,
  beginMarker,
  endMarker,
  replaceSection,
  writeBenchDoc,
} from '../../bench/docs.js';

const SECTIONS = ['app', 'lookup', 'catalogue', 'watches'] as const;
/** Every section a run writes into docs/benchmarks.md. */
const ALL_SECTIONS: BenchSection[] = [...SECTIONS, 'words'];

function doc(bodies: Record<(typeof SECTIONS)[number], string>): string {
  return SECTIONS.map(
    (s) => `## ${s}\n\nProse about ${s}.\n\n${beginMarker(s)}\n${bodies[s]}\n${endMarker(s)}\n`,
  ).join('\n');
}

describe('the benchmark document writer', () => {
  it('replaces one section and keeps the prose and the other sections', () => {
    const before = doc({
      app: 'old app',
      lookup: 'old lookup',
      catalogue: 'old catalogue',
      watches: 'old watches',
    });
    const after = replaceSection(before, 'app', '| new | table |\n');
    expect(after).toBe(
      doc({
        app: '| new | table |',
        lookup: 'old lookup',
        catalogue: 'old catalogue',
        watches: 'old watches',
      }),
    );
  });

  it('writing a section twice gives the same document as writing it once', () => {
    const before = doc({ app: 'a', lookup: 'b', catalogue: 'c', watches: 'w' });
    const once = replaceSection(before, 'lookup', 'new');
    expect(replaceSection(once, 'lookup', 'new')).toBe(once);
  });

  it('refuses a document without the markers, or with them twice or out of order', () => {
    const good = doc({ app: 'a', lookup: 'b', catalogue: 'c', watches: 'w' });
    const broken = [
      good.replace(beginMarker('app'), ''),
      good.replace(endMarker('app'), ''),
      `${good}\n${beginMarker('app')}\n`,
      `${endMarker('app')}\n${beginMarker('app')}\n`,
    ];
    for (const text of broken) {
      expect(() => replaceSection(text, 'app', 'x')).toThrow(/markers/);
    }
  });

  it('writes every section that ran into a file, leaving the others', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-doc-')), 'benchmarks.md');
    writeFileSync(file, doc({ app: 'a', lookup: 'b', catalogue: 'c', watches: 'w' }));
    writeBenchDoc(file, [
      ['app', 'A'],
      ['catalogue', 'C'],
    ]);
    expect(readFileSync(file, 'utf8')).toBe(
      doc({ app: 'A', lookup: 'b', catalogue: 'C', watches: 'w' }),
    );
  });

  it("docs/benchmarks.md carries every section's markers, so a run can write it", () => {
    let text = readFileSync(BENCH_DOC, 'utf8');
    for (const section of ALL_SECTIONS) {
      text = replaceSection(text, section, `figures of ${section}`);
    }
    for (const section of ALL_SECTIONS) expect(text).toContain(`figures of ${section}`);
  });
});
