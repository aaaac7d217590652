/**
 * Fuzzing the real receivers: signed mutations of every sample payload Slack could send
 * (`test/helpers/slack/fixtures/`, see SOURCES.md there) go through Bolt's
 * HTTP receiver and its Socket Mode receiver. Whatever arrives, the process must stay up,
 * every HTTP request must get an answer, no rejection may escape, and the next real command
 * must be answered as usual.
 *
 * Mutations come from fast-check with a fixed seed (set FUZZ_SEED to explore others): a value
 * anywhere in the payload replaced by any JSON value (null, numbers, strings, arrays,
 * objects), a field deleted, the whole body replaced, and the body sent as `payload=<json>`, as
 * plain form fields or as a JSON body, sometimes cut short.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { signSlackRequest } from '../helpers/slack/index.js';
import { answerText, failOnEscapedRejections, stockOverSocket } from './helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
// Per sample, each sample a test of its own: the heaviest (app_home_opened, each valid one a
// Home tab drawn) stays well inside the test timeout with both cores busy elsewhere.
const HTTP_PER_SAMPLE = Number(process.env.FUZZ_HTTP ?? 60);
const SOCKET_PER_SAMPLE = Number(process.env.FUZZ_SOCKET ?? 60);
// Bolt holds a request nobody acknowledges for 3 s before answering 404: send many at once.
const HTTP_CONCURRENCY = 300;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const fixtures = new URL('../helpers/slack/fixtures/', import.meta.url);

/** Every sample, as JSON; the slash command form becomes its fields. */
function samples(): Array<{ name: string; value: Json }> {
  return readdirSync(fixtures)
    .filter((name) => name.endsWith('.json') || name.endsWith('.txt'))
    .map((name) => {
      const text = readFileSync(new URL(name, fixtures), 'utf8');
      const value: Json = name.endsWith('.txt')
        ? Object.fromEntries(new URLSearchParams(text.replace(/\n/g, '')))
        : (JSON.parse(text) as Json);
      return { name, value };
    });
}

/** Every path in a JSON value, the root (`[]`) included. */
function pathsOf(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const here = [prefix];
  if (Array.isArray(value)) {
    return here.concat(...value.map((item, index) => pathsOf(item, [...prefix, index])));
  }
  if (value !== null && typeof value === 'object') {
    return here.concat(
      ...Object.entries(value).map(([key, item]) => pathsOf(item, [...prefix, key])),
    );
  }
  return here;
}

function mutate(base: Json, path: Array<string | number>, op: 'set' | 'delete', value: Json): Json {
  if (path.length === 0) return op === 'delete' ? null : value;
  const copy = structuredClone(base);
  let parent: Json = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string, Json>)[key] as Json;
  const last = path.at(-1) as string | number;
  const container = parent as Record<string | number, Json>;
  if (op === 'delete' && !Array.isArray(parent)) delete container[last];
  else container[last] = value;
  return copy;
}

/** Points every Slack hooks URL at the fake, so nothing tries to reach the internet. */
function localHooks(value: Json, hooksUrl: () => string): Json {
  if (typeof value === 'string')
    return value.startsWith('https://hooks.slack.com') ? hooksUrl() : value;
  if (Array.isArray(value)) return value.map((item) => localHooks(item, hooksUrl));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localHooks(v, hooksUrl)]));
  }
  return value;
}

const anyValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.constant<Json>({}),
  fc.constant<Json>([]),
  fc.constant(''),
  fc.constantFrom('1', 'ssl_check', 'url_verification', 'block_actions', '/stock', 'events_api'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 40 }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

function mutations(base: Json) {
  const paths = pathsOf(base);
  return fc.record({
    path: fc.constantFrom(...paths),
    op: fc.constantFrom<'set' | 'delete'>('set', 'set', 'set', 'delete'),
    value: anyValue,
    encoding: fc.constantFrom('payload', 'fields', 'json'),
    cut: fc.option(fc.nat({ max: 400 }), { freq: 8 }),
  });
}

function encode(value: Json, encoding: string): { body: string; contentType: string } {
  if (encoding === 'json') return { body: JSON.stringify(value), contentType: 'application/json' };
  const form = 'application/x-www-form-urlencoded';
  if (
    encoding === 'fields' &&
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value)
  ) {
    const fields = Object.entries(value).map(([key, item]): [string, string] => [
      key,
      typeof item === 'string' ? item : JSON.stringify(item),
    ]);
    return { body: new URLSearchParams(fields).toString(), contentType: form };
  }
  return {
    body: new URLSearchParams({ payload: JSON.stringify(value) }).toString(),
    contentType: form,
  };
}

/** Runs `tasks` with at most `limit` in flight. */
async function pooled<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

failOnEscapedRejections();

const quiet = {
  logLevel: 'warn' as const,
  env: { ERP_GET_LIMIT_PER_MINUTE: '100000', ERP_SEARCH_LIMIT_PER_MINUTE: '100000' },
};

describe('fuzzing the HTTP receiver', () => {
  let run: RunningApp;
  const agent = new Agent({ connections: HTTP_CONCURRENCY });
  beforeAll(async () => {
    // 300 connections at once from one address: Slack's requests come from many, so the
    // per-address caps (intake.ts, tested in intake.test.ts) are lifted here.
    run = await startApp({
      mode: 'http',
      ...quiet,
      limits: { maxConnectionsPerPeer: 10_000, maxBufferedBytesPerPeer: 64 << 20 },
    });
  });
  afterAll(async () => {
    // The client's 300 kept-alive connections first: the server's graceful stop would wait
    // for each to go idle-timed-out, a wait that grows with the machine's load.
    await agent.close();
    await run?.stop();
  });

  it('lets every sample through as Slack sends it (the guard refuses none of them)', async () => {
    const asSlackSends = samples().filter(
      (sample) =>
        !sample.name.startsWith('socket_mode_') && !sample.name.endsWith('_envelope.json'),
    );
    const statuses = await Promise.all(
      asSlackSends.map(async (sample) => {
        const value = localHooks(sample.value, () => run.slack.responseUrl());
        // Commands arrive as form fields, events as JSON, interactions as `payload=<json>`.
        const encoding = sample.name.endsWith('.txt')
          ? 'fields'
          : sample.name.includes('event_callback')
            ? 'json'
            : 'payload';
        const { body, contentType } = encode(value, encoding);
        const response = await request(run.eventsUrl, {
          method: 'POST',
          body,
          dispatcher: agent,
          headers: { 'content-type': contentType, ...signSlackRequest(SIGNING_SECRET, body) },
        });
        await response.body.dump();
        return [sample.name, response.statusCode] as const;
      }),
    );
    // 404: no listener of this app matches Slack's example (Bolt answers so after 3 s).
    expect(statuses.filter(([, status]) => status !== 200 && status !== 404)).toEqual([]);
    expect(statuses.length).toBeGreaterThan(8);
  });

  // One test per sample, each with the suite's own timeout: a busy machine makes one sample's
  // requests slower, never the sum of all of them late. Statuses gather for the last test.
  const statuses: number[] = [];
  it.each(samples().map((sample, index) => ({ ...sample, index })))(
    'answers every signed mutation of $name with an HTTP status, and keeps serving /stock',
    async ({ value, index }) => {
      const base = localHooks(value, () => run.slack.responseUrl());
      const drawn = fc.sample(mutations(base), { numRuns: HTTP_PER_SAMPLE, seed: SEED + index });
      const tasks = drawn.map((m) => {
        const encoded = encode(mutate(base, m.path, m.op, m.value), m.encoding);
        const body = m.cut === null ? encoded.body : encoded.body.slice(0, m.cut);
        return async () => {
          const response = await request(run.eventsUrl, {
            method: 'POST',
            body,
            dispatcher: agent,
            headers: {
              'content-type': encoded.contentType,
              ...signSlackRequest(SIGNING_SECRET, body),
            },
          });
          await response.body.dump();
          return response.statusCode;
        };
      });
      const answeredHere = await pooled(tasks, HTTP_CONCURRENCY);
      expect(answeredHere).toHaveLength(tasks.length);
      statuses.push(...answeredHere);
      // 200 acknowledged, 400 refused by the guard (or unparseable), 404 nobody listens (Bolt
      // answers so after 3 s). Never a 5xx: Bolt throwing on a field it could not read.
      const answered = new Set([200, 400, 404]);
      expect(answeredHere.filter((status) => !answered.has(status))).toEqual([]);
      expect(run.logLines.filter((line) => line.includes('slack_event_failed'))).toEqual([]);
      const { reply, ack, responseUrl } = await run.command('/stock', 'WIDGET-9');
      expect(reply.status).toBe(200);
      expect(await answerText(run, ack, responseUrl)).toContain('WIDGET-9');
    },
  );

  it('refused some of the mutations and let others through', () => {
    expect(statuses.length).toBe(samples().length * HTTP_PER_SAMPLE);
    expect(statuses.filter((status) => status === 400).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 400).length).toBeGreaterThan(0);
  });
});

describe('fuzzing the Socket Mode receiver', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ mode: 'socket', ...quiet });
  });
  afterAll(async () => {
    await run?.stop();
  });

  // One test per sample, as over HTTP: each sample's frames and the /stock after them are
  // bounded by the suite's timeout, never a share of one deadline for all of them.
  let sent = 0;
  it.each(samples().map((sample, index) => ({ ...sample, index })))(
    'survives mutated envelopes and frames of $name and then answers /stock',
    async ({ value, index }) => {
      const base = localHooks(value, () => run.slack.responseUrl());
      // Samples that are not envelopes yet go in one, as Slack would send them.
      const envelope: Json =
        typeof base === 'object' && base !== null && !Array.isArray(base) && 'envelope_id' in base
          ? base
          : {
              envelope_id: `fuzz-${index}`,
              type: 'interactive',
              accepts_response_payload: true,
              payload: base,
            };
      const drawn = fc.sample(mutations(envelope), {
        numRuns: SOCKET_PER_SAMPLE,
        seed: SEED + index,
      });
      for (const m of drawn) {
        const frame = JSON.stringify(mutate(envelope, m.path, m.op, m.value));
        run.slack.sendRawFrame(m.cut === null ? frame : frame.slice(0, m.cut));
        sent += 1;
      }
      // Frames are read in order: the answer to a real command after them means the client
      // has been through every one of this sample's (and is still answering).
      expect(await stockOverSocket(run)).toContain('WIDGET-9');
      // Nothing reached Bolt that it could not read.
      expect(run.logLines.filter((line) => line.includes('unhandled error occurred'))).toEqual([]);
    },
  );

  it('sent every frame', () => {
    expect(sent).toBe(samples().length * SOCKET_PER_SAMPLE);
  });
});
