/** Whether the Redis at REDIS_URL answers: shared-mode tests run only then, else say why. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';

export async function redisAnswers(url: string | undefined): Promise<boolean> {
  if (!url) return false;
  const probe = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Probes REDIS_URL once and, when it does not answer, prints why `what` is skipped. */
export async function sharedRedisOrSkip(what: string): Promise<boolean> {
  const url = process.env.REDIS_URL;
  const available = await redisAnswers(url);
  if (!available) {
    // biome-ignore lint/suspicious/noConsole: a skipped test must say why in the test output.
    console.warn(`Skipping ${what}: REDIS_URL ${url ? 'does not answer' : 'is unset'}.`);
  }
  return available;
}

/** Whether a `redis-server` binary is on PATH (for tests that start and kill their own). */
export const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

/** A private `redis-server` on 127.0.0.1:port, nothing on disk; resolves once it answers. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const started = Date.now();
  while (!(await redisAnswers(url))) {
    if (Date.now() - started > 5_000) throw new Error('redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

/** Kills a private `redis-server` at once (an outage, or the end of a test). */
export async function stopRedisServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
