import { Writable } from 'node:stream';
import { LogLevel } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createLogger, registerSecret, scrubSecrets, toBoltLogger } from '../../src/log/logger.js';

function collect() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { lines, destination };
}

describe('logger', () => {
  it('redacts personal and secret fields wherever they sit', () => {
    const { lines, destination } = collect();
    const logger = createLogger({ level: 'info', destination });
    logger.info(
      {
        headers: { authorization: 'Basic abc' },
        person: { name: 'Jane Citizen', email: 'jane@acme.example', telephone: '02 9876 5432' },
        token: 'tok',
      },
      'hello',
    );
    const line = lines.join('\n');
    for (const value of [
      'Basic abc',
      'Jane Citizen',
      'jane@acme.example',
      '02 9876 5432',
      '"tok"',
    ]) {
      expect(line).not.toContain(value);
    }
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 'info', msg: 'hello' });
  });

  it('scrubs registered secrets from messages, errors and Bolt lines', () => {
    registerSecret('xoxb-logger-test-secret');
    const { lines, destination } = collect();
    const logger = createLogger({ level: 'debug', destination });
    logger.error(
      { err: new Error('failed with xoxb-logger-test-secret') },
      'token xoxb-logger-test-secret',
    );
    const bolt = toBoltLogger(logger);
    bolt.warn('bolt says', 'xoxb-logger-test-secret', { nested: 'xoxb-logger-test-secret' });
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('xoxb-logger-test-secret');
    expect(lines.join('\n')).toContain('[secret]');
    expect(scrubSecrets('a xoxb-logger-test-secret b')).toBe('a [secret] b');
  });

  it('gives Bolt a working level switch', () => {
    const { lines, destination } = collect();
    const bolt = toBoltLogger(createLogger({ level: 'info', destination }));
    bolt.debug('hidden');
    bolt.setLevel(LogLevel.DEBUG);
    expect(bolt.getLevel()).toBe(LogLevel.DEBUG);
    bolt.debug('shown');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['shown']);
  });
});
