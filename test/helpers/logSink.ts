/**
 * A logger whose lines tests can read. Every line also goes to the suite's leak scan, so a
 * secret or personal data logged by any test's code fails `npm test`.
 */
import { Writable } from 'node:stream';
import { type AppLogger, createLogger } from '../../src/log/logger.js';
import { capture } from './capture.js';

export interface CollectingLogger {
  logger: AppLogger;
  /** Raw JSON lines, oldest first. */
  lines: string[];
  /** The same lines parsed, kept in step (clearing it with `length = 0` is fine). */
  parsed: Array<Record<string, unknown>>;
}

export function collectingLogger(level = 'trace', source = 'test'): CollectingLogger {
  const lines: string[] = [];
  const parsed: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        lines.push(line);
        parsed.push(JSON.parse(line) as Record<string, unknown>);
        capture('log', source, line);
      }
      callback();
    },
  });
  return {
    logger: createLogger({ level, destination }),
    lines,
    parsed,
  };
}
