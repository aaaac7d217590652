/**
 * Odd requests through the real receivers (issue 12, items 1, 2 and 5): a signed body that
 * is JSON `null` used to end the process inside Bolt's HTTP receiver, a Socket Mode frame
 * `null` inside the Socket Mode client, timestamps from the future were accepted, and any
 * response_url was trusted.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_BUFFERED_BYTES_PER_PEER } from '../../src/slack/transport/guard.js';
import { ACTION, encodeState } from '../../src/views/actions.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { eventually } from '../helpers/eventually.js';
import { metricValue } from '../helpers/metrics.js';
import {
  blockActionsPayload,
  interactionForm,
  postToSlackApp,
  signSlackRequest,
  slashCommandForm,
} from '../helpers/slack/index.js';
import { failOnEscapedRejections, stockOverSocket } from './helpers.js';

failOnEscapedRejections();

/** Every request the guards refused so far, all reasons together. */
const refusedTotal = (run: RunningApp) => metricValue(run, 'slack_requests_refused_total');

describe('over HTTP', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ mode: 'http' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const signed = (body: string, contentType?: string, timestamp?: number) =>
    postToSlackApp(run.eventsUrl, body, {
      signingSecret: SIGNING_SECRET,
      ...(contentType ? { contentType } : {}),
      ...(timestamp ? { timestamp } : {}),
    });

  it('answers a signed payload=null, JSON null and other non-objects with 400, then serves the next command', async () => {
    const bodies: Array<[string, string | undefined]> = [
      ['payload=null', undefined],
      ['null', 'application/json'],
      ['payload=42', undefined],
      ['payload=%22text%22', undefined],
      ['[]', 'application/json'],
      ['true', 'application/json'],
    ];
    const refusedBefore = await refusedTotal(run);
    for (const [body, contentType] of bodies) {
      const reply = await signed(body, contentType);
      expect(reply.status, body).toBe(400);
    }
    // Each was refused by the guard (counted), none reached Bolt.
    expect((await refusedTotal(run)) - refusedBefore).toBe(bodies.length);
    const { reply, ack } = await run.command('/stock', 'WIDGET-9');
    expect(reply.status).toBe(200);
    expect(textOf(ack ?? {})).toContain('WIDGET-9');
    expect(run.logLines.join('\n')).toContain('"reason":"not_an_object"');
  });

  it('refuses a timestamp more than 5 minutes in the future, and in the past', async () => {
    const body = slashCommandForm({
      command: '/stock',
      text: 'WIDGET-9',
      response_url: run.slack.responseUrl(),
    });
    const now = Math.floor(Date.now() / 1000);
    const before = run.sandbox.stats().requests.getItem ?? 0;
    expect((await signed(body, undefined, now + 6 * 60)).status).toBe(401);
    expect((await signed(body, undefined, now - 6 * 60)).status).toBe(401);
    // Signed for a future time, its header spelled another way Bolt's verifier reads alike.
    const future = now + 6 * 60;
    const respelled = {
      ...signSlackRequest(SIGNING_SECRET, body, future),
      'x-slack-request-timestamp': `${future}.0`,
    };
    expect(await rawPost('/slack/events', body, respelled)).toBe(401);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before);
    expect((await signed(body, undefined, now + 60)).status).toBe(200);
  });

  it('refuses a stale timestamp from its header, before a byte of the body is read', async () => {
    const body = slashCommandForm({
      command: '/stock',
      text: 'WIDGET-9',
      response_url: run.slack.responseUrl(),
    });
    const past = Math.floor(Date.now() / 1000) - 6 * 60;
    const stale = () =>
      metricValue(run, 'slack_requests_refused_total', { reason: 'stale_timestamp' });
    const before = await stale();
    // Small, with Slack's headers (spelled as Bolt's verifier reads alike), and no body ever
    // sent: only a refusal from the headers alone answers it.
    const status = await headersOnly({
      ...signSlackRequest(SIGNING_SECRET, body, past),
      'x-slack-request-timestamp': `${past}.0`,
      'content-length': String(Buffer.byteLength(body)),
    });
    expect(status).toBe(401);
    expect((await stale()) - before).toBe(1);
    expect(run.logLines.join('\n')).toContain('"reason":"stale_timestamp"');
  });

  /** A form POST to this path of the app, as `http.request` takes it. */
  const postTo = (path: string, headers: Record<string, string>) => {
    const url = new URL(run.baseUrl);
    return {
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    };
  };

  /** A POST whose headers arrive and whose body never does; resolves with the status. */
  const headersOnly = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const req = request(postTo('/slack/events', headers), (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      req.flushHeaders();
    });

  /** A raw HTTP request: fetch would tidy the target (`..`, absolute form) before sending. */
  const rawPost = (target: string, body: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const req = request(postTo(target, headers), (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('checks every signature before Bolt, on every spelling of the endpoint, and runs nothing unsigned', async () => {
    const body = slashCommandForm({
      command: '/stock',
      text: 'WIDGET-9',
      response_url: run.slack.responseUrl(),
    });
    const refusedBefore = run.logLines.filter((line) => line.includes('bad_signature')).length;
    const forged = signSlackRequest(`${SIGNING_SECRET}-forged`, body);
    const signed = signSlackRequest(SIGNING_SECRET, body);
    // The signature covers the timestamp: the same signature under another one is refused.
    const later = String(Number(signed['x-slack-request-timestamp']) + 1);
    for (const target of ['/slack/events', '/x/../slack/events', 'http://evil/slack/events']) {
      expect(await rawPost(target, body, {}), `${target} unsigned`).toBe(401);
      expect(await rawPost(target, body, { ...forged }), `${target} forged`).toBe(401);
      expect(
        await rawPost(target, body, { ...signed, 'x-slack-request-timestamp': later }),
        `${target} re-timed`,
      ).toBe(401);
      expect(await rawPost(target, body, { ...signed }), `${target} signed`).toBe(200);
    }
    const refused = run.logLines.filter((line) => line.includes('bad_signature')).length;
    expect(refused - refusedBefore).toBe(9);
  });

  it("answers Slack's unsigned ssl_check with 200 and drops a command smuggled along with it", async () => {
    const command = slashCommandForm({
      command: '/stock',
      text: 'SMUGGLED-1',
      response_url: run.slack.responseUrl(),
    });
    // WIDGET-9 answered once, so the command after the smuggling one is a cache hit: it
    // calls the ERP no more, and any ERP call counted below is the smuggled command's.
    expect(textOf((await run.command('/stock', 'WIDGET-9')).ack ?? {})).toContain('WIDGET-9');
    const before = run.sandbox.stats().requests.getItem ?? 0;
    // The first card may have spent one search on its sell price (docs/erp-api.md).
    const searchesBefore = run.sandbox.stats().requests.searchItems ?? 0;
    const reply = await postToSlackApp(run.eventsUrl, `ssl_check=1&${command}`, {
      signingSecret: SIGNING_SECRET,
      unsigned: true,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('');
    // A command sent after it goes through the same receiver and is answered: had the
    // smuggled one been dispatched, it would have been dispatched before this one.
    const after = await run.command('/stock', 'WIDGET-9');
    expect(textOf(after.ack ?? {})).toContain('WIDGET-9');
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before);
    expect(run.sandbox.stats().requests.searchItems ?? 0).toBe(searchesBefore);
  });

  describe('response_url', () => {
    let listener: Server;
    let hits: string[];
    beforeAll(async () => {
      hits = [];
      listener = createServer((req, res) => {
        hits.push(req.url ?? '');
        res.end('ok');
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => listener.close(resolve));
    });

    it('sends nothing to a response_url outside Slack and answers a Reveal through the Web API', async () => {
      const port = (listener.address() as AddressInfo).port;
      const hostile = `http://127.0.0.1:${port}/steal?token=abc`;
      const postedBefore = run.slack.calls('chat.postEphemeral').length;
      const reply = await postToSlackApp(
        run.eventsUrl,
        interactionForm(
          blockActionsPayload({
            actionId: ACTION.contactReveal,
            value: encodeState({ v: 1, t: 'c', r: { c: 'ACME01' } }),
            responseUrl: hostile,
          }),
        ),
        { signingSecret: SIGNING_SECRET },
      );
      expect(reply.status).toBe(200);
      const posted = await run.slack.waitForCalls('chat.postEphemeral', postedBefore + 1);
      const fallback = posted.at(-1);
      expect(fallback?.args.user).toBeTruthy();
      expect(fallback?.args.channel).toBeTruthy();
      expect(hits).toEqual([]);
      const log = run.logLines.filter((line) => line.includes('response_url_refused'));
      expect(log.length).toBeGreaterThan(0);
      expect(log.join('\n')).not.toContain('/steal');
      expect(log.join('\n')).not.toContain('token=abc');
      const metrics = await (await fetch(`${run.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/slack_response_url_refused_total [1-9]/);
    });
  });
});

describe('over Socket Mode', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ mode: 'socket' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('drops a frame null, an envelope whose payload is null, and frames that name client events, then answers the next command', async () => {
    const frames = [
      'null',
      '42',
      '"hello"',
      '{"type":null}',
      JSON.stringify({ envelope_id: 'e1', type: 'slash_commands', payload: null }),
      JSON.stringify({ envelope_id: 'e2', type: 'events_api', payload: null }),
      JSON.stringify({ envelope_id: 'e3', type: 'events_api', payload: { event: null } }),
      JSON.stringify({ envelope_id: 'e4', type: 'error', payload: {} }),
      JSON.stringify({ envelope_id: 'e5', type: 'ws_message', payload: {} }),
      JSON.stringify({
        envelope_id: 'e6',
        type: 'events_api',
        payload: { event: { type: 'error' } },
      }),
    ];
    const unexpected = () => run.logLines.filter((line) => line.includes('unexpected_frame'));
    for (const frame of frames) run.slack.sendRawFrame(frame);
    await eventually(() => expect(unexpected().length).toBeGreaterThanOrEqual(frames.length));
    expect(await stockOverSocket(run)).toContain('WIDGET-9');
    expect(unexpected()).toHaveLength(frames.length);
  });
});

describe('request limits over HTTP', () => {
  let run: RunningApp;
  beforeAll(async () => {
    // A short body deadline, so a slow body is cut off without a long sleep.
    run = await startApp({
      mode: 'http',
      limits: { bodyDeadlineMs: 300 },
    });
  });
  afterAll(async () => {
    await run?.stop();
  });

  /** Sends headers and `first` bytes of a body, then keeps the connection open. */
  const slowPost = (path: string, headers: Record<string, string>, first: string) =>
    new Promise<{ status: number; socket: Socket }>((resolve, reject) => {
      const url = new URL(run.baseUrl);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, socket: req.socket as Socket });
        },
      );
      req.on('error', (error) => {
        if ((error as { code?: string }).code !== 'ECONNRESET') reject(error);
      });
      req.write(first);
    });

  const metric = async (pattern: string) => {
    const metrics = await (await fetch(`${run.baseUrl}/metrics`)).text();
    return Number(new RegExp(`${pattern} (\\d+)`).exec(metrics)?.[1] ?? 0);
  };
  const refusedCount = (reason: string) =>
    metric(`slack_requests_refused_total\\{reason="${reason}"\\}`);
  const bufferedBytes = () => metric('slack_request_body_bytes_buffered');

  it('answers 413 from a Content-Length above the cap without waiting for the body', async () => {
    const { status } = await slowPost('/slack/events', { 'content-length': String(4 << 20) }, 'a');
    expect(status).toBe(413);
  });

  it('cuts off a body that grows past the cap while streaming (no Content-Length)', async () => {
    const { status } = await slowPost(
      '/slack/events',
      { 'transfer-encoding': 'chunked' },
      'x'.repeat(MAX_BODY_BYTES + 10),
    );
    expect(status).toBe(413);
  });

  it('cuts off a body that does not arrive before the deadline', async () => {
    const before = await refusedCount('too_slow');
    const { status } = await slowPost('/slack/events', { 'content-length': '100' }, 'command=');
    expect(status).toBe(408);
    expect(await refusedCount('too_slow')).toBe(before + 1);
  });

  it('refuses 25 slow 4 MB bodies at once, buffering none, and /healthz answers meanwhile', async () => {
    const before = await refusedCount('too_large');
    const senders = Array.from({ length: 25 }, () =>
      slowPost('/slack/events', { 'content-length': String(4 << 20) }, 'payload='),
    );
    const health = await fetch(`${run.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await bufferedBytes()).toBe(0);
    const replies = await Promise.all(senders);
    expect(replies.map((reply) => reply.status)).toEqual(Array(25).fill(413));
    expect(await refusedCount('too_large')).toBe(before + 25);
  });

  it('refuses an unsigned POST to any path, and serves health routes on their exact paths only', async () => {
    for (const path of ['/unknown', '/healthz', '/slack/other']) {
      const reply = await fetch(`${run.baseUrl}${path}`, { method: 'POST', body: 'a=1' });
      expect(reply.status, path).toBe(401);
    }
    // Signed, but not a Slack endpoint: nothing serves it.
    const signedElsewhere = await postToSlackApp(`${run.baseUrl}/unknown`, 'a=1', {
      signingSecret: SIGNING_SECRET,
    });
    expect(signedElsewhere.status).toBe(404);
    expect((await fetch(`${run.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${run.baseUrl}/healthz?x=1`)).status).toBe(200);
    for (const path of ['/healthz/', '/METRICS', '/Readyz', '/metrics/']) {
      expect((await fetch(`${run.baseUrl}${path}`)).status, path).toBe(404);
    }
  });

  it('holds at most its budget for many slow bodies under the cap, refusing the rest with 503', async () => {
    const before = await refusedCount('too_many_bodies');
    // Each declares 300 KiB and sends 200 KiB, then stalls: 25 of them would hold 5 MB.
    const sent = 200 * 1024;
    const senders = Array.from({ length: 25 }, () =>
      slowPost('/slack/events', { 'content-length': String(300 * 1024) }, 'x'.repeat(sent)),
    );
    const replies = await Promise.all(senders);
    const statuses = replies.map((reply) => reply.status);
    // One peer may hold its share (2 MiB, ten of them); the rest are refused as they come.
    const refused = 25 - Math.floor(MAX_BUFFERED_BYTES_PER_PEER / sent);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(refused);
    expect(statuses.every((status) => status === 503 || status === 408)).toBe(true);
    expect(await refusedCount('too_many_bodies')).toBeGreaterThanOrEqual(before + refused);
    expect(await bufferedBytes()).toBe(0);
  });
});
