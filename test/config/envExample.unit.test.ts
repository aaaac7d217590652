/**
 * `.env.example` is generated from the configuration schema (`npm run env-example`); these
 * tests fail when it is stale and check that what it says is what the app does.
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadConfig } from '../../src/config/config.js';
import { renderEnvExample } from '../../src/config/envExample.js';

const file = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');

describe('.env.example', () => {
  it('is what `npm run env-example` generates from the schema (else run it)', () => {
    expect(file).toBe(renderEnvExample());
  });

  it('names every variable of the schema once, each after a line of meaning', () => {
    const lines = file.split('\n');
    for (const name of Object.keys(EnvSchema.shape)) {
      const at = lines.flatMap((line, index) =>
        new RegExp(`^(# )?${name}=`).test(line) ? [index] : [],
      );
      expect(at, name).toHaveLength(1);
      const meaning = lines[(at[0] ?? 0) - 1] ?? '';
      expect(meaning, name).toMatch(/^# \S.{10,}/);
    }
  });

  it('copied to .env as it is, starts the console on the sandbox', () => {
    const config = loadConfig(parseEnv(file));
    expect(config.mode).toBe('console');
    expect(config.erp.kind).toBe('sandbox');
  });

  it('gives the real defaults: uncommenting them changes nothing', () => {
    const uncommented = file.replace(/^# ([A-Z_]+=)/gm, '$1');
    expect(uncommented).not.toBe(file);
    expect(loadConfig(parseEnv(uncommented))).toEqual(loadConfig({}));
  });
});

describe('.env.example and compose.yaml', () => {
  const compose = readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8');
  const caddy = readFileSync(new URL('../../deploy/Caddyfile', import.meta.url), 'utf8');

  it('lists every variable compose.yaml and the Caddyfile read', () => {
    const read = new Set([
      ...[...compose.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]),
      ...[...caddy.matchAll(/\{\$([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]),
    ]);
    expect([...read]).toContain('SITE_ADDRESS');
    for (const name of read) expect(file, String(name)).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
  });

  it("documents every variable compose.yaml sets in the app's environment", () => {
    const environment = [...compose.matchAll(/^ {4}([A-Z_][A-Z0-9_]*): /gm)].map((m) => m[1]);
    for (const name of environment) {
      expect(file, String(name)).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
    }
  });
});
