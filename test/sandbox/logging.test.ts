import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { startSandbox } from '../../src/sandbox/index.js';

function linesOf(name: string | undefined) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: createLogger({ level: 'debug', destination, name }), lines };
}

describe('sandbox log lines', () => {
  it('name the component once, whether or not the caller named its logger', async () => {
    for (const name of ['sandbox', undefined]) {
      const { logger, lines } = linesOf(name);
      const sandbox = await startSandbox({ logger });
      await fetch(`${sandbox.url}/no-such-endpoint`).catch(() => undefined);
      await sandbox.close();
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line.match(/"component":/g)?.length, line).toBe(1);
        expect(line).toContain('"component":"sandbox"');
      }
    }
  });
});
