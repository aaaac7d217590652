/** Whether the Redis at REDIS_URL answers: shared-mode tests run only then, else say why. */
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
