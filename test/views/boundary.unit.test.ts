/**
 * Views are pure: functions from data to blocks. This test fails when any file in src/views
 * imports a transport (Slack's runtime, HTTP, Redis, the ERP client, the lookup service) or
 * anything outside a short allowlist.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const VIEWS = join(import.meta.dirname, '../../src/views');

const FORBIDDEN = [
  /^@slack\/(bolt|web-api|socket-mode|oauth)/,
  /^undici/,
  /^ioredis/,
  /^ws$/,
  /^pino/,
  /^(node:)?(http|https|http2|net|tls|dgram|dns|child_process|fs|fs\/promises)$/,
  /\/erp\/(client|http|url)(\.js)?$/,
  /\/lookup\/(service|cache|budget)/,
  /\/(slack|console|sandbox|log|config)\//,
];

/** What views may use: Slack's types, zod (via actions), date-fns, siblings, contract types and id shapes. */
const ALLOWED = [
  /^@slack\/types$/,
  /^zod$/,
  // One function a file (date-fns/format …): the package index loads all of date-fns.
  /^date-fns(\/\w+)?$/,
  /^\.\/[\w-]+\.js$/,
  /^\.\.\/erp\/(schemas|errors|api)\.js$/,
  /^\.\.\/lookup\/types\.js$/,
  // The shape of a Slack member id, so a view writes `<@id>` only for an id.
  /^\.\.\/ids\/member\.js$/,
  // The rules' result types: the answer works the verdict out, the view only draws it.
  /^\.\.\/rules\/\w+\.js$/,
];

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function importsOf(file: string, source: string): Import[] {
  const found: Import[] = [];
  const statics = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(statics)) {
    found.push({ file, specifier: m[3] ?? '', typeOnly: Boolean(m[2]) });
  }
  for (const m of source.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push({ file, specifier: m[1] ?? '', typeOnly: false });
  }
  return found;
}

const files = readdirSync(VIEWS).filter((f) => f.endsWith('.ts'));
const imports = files.flatMap((f) => importsOf(f, readFileSync(join(VIEWS, f), 'utf8')));

describe('src/views boundary', () => {
  it('finds the view files and their imports (the scan itself works)', () => {
    expect(files).toContain('itemCard.ts');
    expect(imports.some((i) => i.specifier === '@slack/types' && i.typeOnly)).toBe(true);
    expect(
      importsOf('x.ts', "import { App } from '@slack/bolt';\nconst m = await import('undici');"),
    ).toEqual([
      { file: 'x.ts', specifier: '@slack/bolt', typeOnly: false },
      { file: 'x.ts', specifier: 'undici', typeOnly: false },
    ]);
  });

  it('imports no transport', () => {
    const bad = imports.filter((i) => FORBIDDEN.some((pattern) => pattern.test(i.specifier)));
    expect(bad).toEqual([]);
  });

  it('takes only types from the stock and contact rules: the answers work them out', () => {
    const ruleCalls = imports.filter((i) => i.specifier.includes('/rules/') && !i.typeOnly);
    expect(ruleCalls).toEqual([]);
    expect(imports.some((i) => i.specifier === '../rules/stock.js' && i.typeOnly)).toBe(true);
  });

  it('imports only from the allowlist', () => {
    const outside = imports.filter((i) => !ALLOWED.some((pattern) => pattern.test(i.specifier)));
    expect(outside).toEqual([]);
  });

  it('uses @slack/types for types only, and no global fetch or console', () => {
    expect(imports.filter((i) => i.specifier === '@slack/types' && !i.typeOnly)).toEqual([]);
    for (const file of files) {
      const source = readFileSync(join(VIEWS, file), 'utf8');
      expect(source, file).not.toMatch(/\bfetch\s*\(|\bconsole\./);
    }
  });
});
