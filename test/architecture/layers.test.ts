/**
 * The layers of docs/architecture.md hold: every import in src/ (static, type-only or dynamic)
 * goes to the importing folder itself or to a folder its row allows, every allowed folder sits
 * lower in the table, and no two files import each other round a circle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const ROOT_FILES = 'root';

interface Layer {
  folder: string;
  mayImport: ReadonlySet<string> | 'everything';
}

/** The rows of the "Layers" table: folder, concern, what it may import. */
function layersOfDoc(markdown: string): Layer[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Layers'));
  if (!section) throw new Error('docs/architecture.md has no "Layers" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `src/'))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      const first = cells[1] ?? '';
      const last = cells[cells.length - 2] ?? '';
      const folder = /`src\/(\w+)\/`/.exec(first)?.[1] ?? ROOT_FILES;
      const names = [...last.matchAll(/`(\w+)`/g)].map((m) => m[1] ?? '');
      return { folder, mayImport: last === 'everything' ? 'everything' : new Set(names) };
    });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative specifiers of a file's imports and re-exports, static or dynamic. */
function relativeImports(source: string): string[] {
  const found: string[] = [];
  const statics = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/gm;
  for (const m of source.matchAll(statics)) found.push(m[1] ?? '');
  for (const m of source.matchAll(/\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g))
    found.push(m[1] ?? '');
  return found;
}

const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? ROOT_FILES : (parts[0] ?? ROOT_FILES);
};

const layers = layersOfDoc(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
const files = sourceFiles(SRC);
const edges = files.flatMap((file) =>
  relativeImports(readFileSync(file, 'utf8')).map((specifier) => ({
    from: file,
    to: resolve(dirname(file), specifier).replace(/\.js$/, '.ts'),
  })),
);
const name = (file: string) => relative(SRC, file);

describe('the layers of src/', () => {
  it('reads the table and the imports (the scan itself works)', () => {
    expect(layers.map((layer) => layer.folder)).toEqual(
      expect.arrayContaining([ROOT_FILES, 'slack', 'views', 'lookup', 'erp', 'log']),
    );
    expect(edges.length).toBeGreaterThan(500);
    expect(
      relativeImports(
        "import type { A } from '../a.js';\nexport { b } from './b.js';\nconst c = await import('../c/d.js');\nimport x from 'zod';",
      ),
    ).toEqual(['../a.js', './b.js', '../c/d.js']);
  });

  it('has a row for every folder of src/', () => {
    const folders = new Set(files.map(folderOf));
    expect([...folders].filter((f) => !layers.some((l) => l.folder === f))).toEqual([]);
  });

  it('lets each folder import only folders in rows below it', () => {
    const upward = layers.flatMap((layer, index) =>
      layer.mayImport === 'everything'
        ? []
        : [...layer.mayImport]
            .filter((allowed) => layers.findIndex((l) => l.folder === allowed) <= index)
            .map((allowed) => `${layer.folder} -> ${allowed}`),
    );
    expect(upward).toEqual([]);
  });

  it('has no import the table does not allow', () => {
    const refused = edges
      .filter(({ from, to }) => {
        const source = folderOf(from);
        const target = folderOf(to);
        if (source === target) return false;
        const layer = layers.find((l) => l.folder === source);
        return layer?.mayImport !== 'everything' && !layer?.mayImport.has(target);
      })
      .map(({ from, to }) => `${name(from)} -> ${name(to)}`);
    expect(refused).toEqual([]);
  });

  it('has no circle between files', () => {
    const next = new Map<string, string[]>();
    for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].map(name).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const to of next.get(file) ?? []) visit(to, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});
