/**
 * A real `redis-server` restarted under two replicas and a stream of lookups (the documented
 * scale-out, compose.yaml): every lookup is answered, the ERP never answers 429, and both
 * replicas' `/readyz` stay 200 throughout, so a routing rule on readiness keeps serving.
 */
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { freePort, type RunningApp, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { redisServerInstalled, startRedisServer, stopRedisServer } from '../helpers/redis.js';

const FAST = { tickMs: 50, quietMs: 100, probeEveryMs: 300 };

describe.skipIf(!redisServerInstalled)('Redis restarted under two replicas', () => {
  const started: RunningApp[] = [];
  let erp: RunningSandbox | undefined;
  afterAll(async () => {
    for (const replica of started) await replica.stop();
    await erp?.close();
  });

  it('answers every lookup, without a 429, while /readyz stays 200 on both', async () => {
    const port = await freePort();
    let redis = await startRedisServer(port);
    erp = await startSandbox();
    const env = { REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'info' };
    try {
      for (let i = 0; i < 2; i += 1) {
        started.push(await startApp({ erp, env, readiness: FAST, logLevel: 'info' }));
      }
      const replicas = [...started];
      // Both ready before the stream starts.
      for (const replica of replicas) {
        for (let tries = 0; (await request(`${replica.baseUrl}/readyz`)).statusCode !== 200; ) {
          tries += 1;
          if (tries > 200) throw new Error('a replica never became ready');
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }

      // Readiness watched on both replicas for the whole test.
      const notReady: string[] = [];
      let watching = true;
      const watch = (async () => {
        while (watching) {
          for (const replica of replicas) {
            const answer = await request(`${replica.baseUrl}/readyz`);
            const body = await answer.body.text();
            if (answer.statusCode !== 200) notReady.push(body);
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();

      const codes = erp.data.items.slice(0, 12).map((item) => item.record.code);
      const lost: string[] = [];
      const lookUp = async (index: number) => {
        const replica = replicas[index % 2] as RunningApp;
        const code = codes[index % codes.length] as string;
        const { ack, responseUrl } = await replica.command('/stock', code);
        if (textOf(ack ?? {}).includes(code)) return;
        const later = await replica.slack.waitForResponses(responseUrl, 1, 10_000).catch(() => []);
        const answer = later.map((response) => textOf(response.body)).join(' ');
        if (!answer.includes(code)) {
          lost.push(
            `${index} ${code}: ack ${textOf(ack ?? {}).slice(0, 200)} | ${answer.slice(0, 200)}`,
          );
        }
      };

      let index = 0;
      const stream = async (count: number) => {
        for (const end = index + count; index < end; index += 1) await lookUp(index);
      };
      await stream(16);
      await stopRedisServer(redis);
      await stream(16);
      redis = await startRedisServer(port);
      await stream(16);
      // Redis is used again by both replicas once the clients reconnected.
      for (const replica of replicas) {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const answer = await request(`${replica.baseUrl}/readyz`);
          const body = (await answer.body.json()) as { degraded: string[] };
          if (body.degraded.length === 0) break;
          if (Date.now() > deadline) throw new Error('Redis never came back');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      await stream(8);
      watching = false;
      await watch;

      expect(lost).toEqual([]);
      expect(erp.stats().byStatus['429'] ?? 0).toBe(0);
      expect(notReady).toEqual([]);
      // One warning per replica when Redis went away, and one line when it was back.
      for (const replica of replicas) {
        const lines = replica.logLines.join('\n');
        expect(lines.match(/Redis unreachable/g) ?? []).toHaveLength(1);
        expect(lines.match(/Redis is back/g) ?? []).toHaveLength(1);
        expect(lines).not.toMatch(/"stack"/);
      }
    } finally {
      await stopRedisServer(redis);
    }
  }, 90_000);
});
