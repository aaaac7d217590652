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
