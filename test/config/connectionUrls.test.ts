/**
 * A Redis that requires a password full of URL characters (`/ + = @ : # %`), given as
 * REDIS_PASSWORD: the app's client authenticates with it. The parsing alone is
 * connectionUrls.unit.test.ts; this is the real server's word on it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/log/logger.js';
import { connectRedis } from '../../src/lookup/redisConnect.js';
import { freePort } from '../helpers/app.js';
import { redisAnswers, redisServerInstalled } from '../helpers/redis.js';

const PASSWORD = 'p/a+s=s@w:o#r?d%2F 50%';

describe.runIf(redisServerInstalled)('REDIS_PASSWORD against a Redis that requires it', () => {
  let port = 0;
  let server: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    port = await freePort();
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--requirepass', PASSWORD],
      { stdio: 'ignore' },
    );
    const url = `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;
    // Started when it answers; each probe is one awaited round trip, no fixed wait.
    while (!(await redisAnswers(url))) {
      if (server.exitCode !== null) throw new Error('redis-server exited');
    }
  });

  afterAll(async () => {
    if (!server || server.exitCode !== null) return;
    const exited = once(server, 'exit');
    server.kill('SIGKILL');
    await exited;
  });

  it('authenticates with the password given on its own', async () => {
    const config = loadConfig({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_PASSWORD: PASSWORD,
    });
    const redis = connectRedis(config.redisUrl ?? '', createLogger({ level: 'silent' }));
    try {
      await once(redis, 'ready');
      expect(await redis.ping()).toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });
});
