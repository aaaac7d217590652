/**
 * `npm run env-example`: rewrites `.env.example` from the configuration schema.
 * `npm run env-example -- --check` only says whether the file is current (exit 1 when stale).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEnvExample } from '../src/config/envExample.js';

const file = fileURLToPath(new URL('../.env.example', import.meta.url));
const wanted = renderEnvExample();

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (current !== wanted) {
    process.stderr.write('.env.example is stale: run `npm run env-example`.\n');
    process.exit(1);
  }
  process.stdout.write('.env.example is current.\n');
} else {
  writeFileSync(file, wanted);
  process.stdout.write(`Wrote ${file}\n`);
}
