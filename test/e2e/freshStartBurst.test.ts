/**
 * A fresh start, as an operator runs it (`src/main.ts` in a child process, configured by
 * environment only, the ERP a sandbox that enforces 60 getItem calls a minute), and then a
 * burst: the moment /healthz answers, 60 people each send a signed /stock for a different
 * code through the HTTP receiver.
 *
 * Every call that reaches the ERP counts against its minute, whoever made it: the start-up
 * credential check, the readiness probe, users. The ERP must see at most 60 getItem calls in
 * any 60 s span and answer none with 429. The app's own checks spend contact slots, so all 60
 * people get their card at once (QUEUE_MAX_WAIT_SECONDS is short here, so a lookup that did
 * not fit would show as "busy" rather than a wait).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { freePort } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { capture, captureSecret } from '../helpers/capture.js';
import { freshShellEnv, nodeArgsForSource, repoRoot } from '../helpers/entry.js';
import {
  type FakeSlack,
  postToSlackApp,
  slashCommandForm,
  startFakeSlack,
} from '../helpers/slack/index.js';
import { type ErpProxy, startErpProxy } from './helpers/recordingProxy.js';

const BOT_TOKEN = 'xoxb-burst-0123456789';
const SIGNING_SECRET = '5b1d3f7a9c0e2b4d6f8a0c1e3b5d7f9a';
const LIMIT = 60;
const WINDOW_MS = 60_000;
const PEOPLE = 60;
/**
 * Nothing here may depend on the machine being idle: a busy machine must make this slow, never
 * failing. So the ERP calls get the longest timeout the app allows (a late sandbox answer
 * would otherwise be a failed lookup, and its retry one getItem too many), one person's answer
 * is waited for as long as the test may run (its timeout is the only bound, a guard against a
 * hang), and the start-up, which compiles the app first when dist/ is stale, gets a guard of
 * its own as long.
 */
const GUARD_MS = 120_000;

/** Resolves once the child prints `text`; rejects if it exits first (the hook's timeout bounds it). */
function printed(child: ChildProcess, output: () => string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = () => {
      if (!output().includes(text)) return;
      done();
      resolve();
    };
    const exit = () => {
      done();
      reject(new Error(`the app did not start:\n${output()}`));
    };
    const done = () => {
      child.stdout?.off('data', look);
      child.stderr?.off('data', look);
      child.off('exit', exit);
    };
    // Listeners added after the test's own: `output()` already holds the chunk.
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', exit);
    if (child.exitCode !== null) exit();
    else look();
  });
}

/** The most calls that fell within any `windowMs` span (two pointers over sorted times). */
function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last += 1) {
    while ((sorted[last] ?? 0) - (sorted[first] ?? 0) >= windowMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('a fresh start, then 60 people look up 60 codes at once', () => {
  let sandbox: RunningSandbox;
  let proxy: ErpProxy;
  let slack: FakeSlack;
  let child: ChildProcess;
  let exited: Promise<unknown>;
  let out = '';
  let port: number;
  /** When each getItem reached the ERP (the proxy sits right in front of it). */
  const getItemAt: number[] = [];

  beforeAll(async () => {
    captureSecret(BOT_TOKEN);
    captureSecret(SIGNING_SECRET);
    sandbox = await startSandbox({ limits: { getItem: LIMIT, windowMs: WINDOW_MS } });
    proxy = await startErpProxy(sandbox.url);
    proxy.intercept = (seen) => {
      if (seen.target.startsWith('/api/getItem')) getItemAt.push(Date.now());
      return undefined;
    };
    slack = await startFakeSlack({ botToken: BOT_TOKEN });
    port = await freePort();
    child = spawn(process.execPath, nodeArgsForSource('src/main.ts'), {
      cwd: repoRoot,
      env: freshShellEnv({
        // A fresh start has no watches: a data directory of its own, not the worker's, where
        // earlier files' apps left watches whose checks would spend item slots of the minute.
        DATA_DIR: mkdtempSync(join(process.env.TEST_DATA_ROOT ?? tmpdir(), 'burst-')),
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        PORT: String(port),
        ERP_BASE_URL: proxy.url,
        ERP_COMPANY_CODE: sandbox.credentials.companyCode,
        ERP_ACCESS_TOKEN: sandbox.credentials.accessToken,
        ERP_TENANT_ID: sandbox.credentials.tenantId,
        ERP_GET_LIMIT_PER_MINUTE: String(LIMIT),
        QUEUE_MAX_WAIT_SECONDS: '5',
        ERP_TIMEOUT_MS: '120000',
        LOG_LEVEL: 'info',
      }),
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    exited = once(child, 'exit');
    await printed(child, () => out, 'Listening on port');
  }, GUARD_MS);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    await exited;
    for (const line of out.split('\n')) capture('log', 'fresh start burst', line);
    await slack?.close();
    await proxy?.close();
    await sandbox?.close();
  });

  it(
    'sends at most 60 getItem calls in any minute, draws no 429, and answers everyone',
    async () => {
      const health = await request(`http://127.0.0.1:${port}/healthz`);
      expect(health.statusCode).toBe(200);
      await health.body.dump();

      const codes = sandbox.data.items.slice(0, PEOPLE).map((item) => item.record.code);
      const sent = await Promise.all(
        codes.map(async (code, index) => {
          const responseUrl = slack.responseUrl();
          const reply = await postToSlackApp(
            `http://127.0.0.1:${port}/slack/events`,
            slashCommandForm({
              command: '/stock',
              text: code,
              response_url: responseUrl,
              user_id: `U${String(index).padStart(8, '0')}`,
            }),
            { signingSecret: SIGNING_SECRET },
          );
          return { code, responseUrl, reply };
        }),
      );
      for (const { reply } of sent) expect(reply.status).toBe(200);

      // Each person's final answer: on the acknowledgement, or the last response_url post.
      const answers = await Promise.all(
        sent.map(async ({ code, responseUrl, reply }) => {
          const ack = (reply.json ?? {}) as { blocks?: unknown[] };
          const acked = textOf(ack);
          if (ack.blocks && !acked.includes(':hourglass_flowing_sand:'))
            return { code, text: acked };
          for (let count = 1; ; count += 1) {
            const posts = await slack
              .waitForResponses(responseUrl, count, GUARD_MS)
              .catch(() => undefined);
            if (!posts) return { code, text: '(no answer)' };
            const text = textOf(posts.at(-1)?.body ?? {});
            if (!text.includes(':hourglass_flowing_sand:')) return { code, text };
          }
        }),
      );

      expect(answers.filter(({ text }) => text === '(no answer)')).toEqual([]);
      expect(sandbox.stats().rateLimited).toBe(0);
      expect(getItemAt.length).toBeLessThanOrEqual(LIMIT);
      expect(out).not.toContain('ERP answered 429');
      expect(busiestWindow(getItemAt, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
      const cards = answers.filter(
        ({ code, text }) => text.includes(code) && !/Lots of/.test(text),
      );
      const busy = answers.filter(({ text }) => /Lots of lookups right now/.test(text));
      // The start-up check and the readiness probe spend contact slots: every one of the 60
      // item slots goes to a person, and all 60 get their card now.
      expect(busy).toEqual([]);
      expect(cards.length).toBe(PEOPLE);
      expect(getItemAt.length).toBe(PEOPLE);
    },
    GUARD_MS,
  );
});
