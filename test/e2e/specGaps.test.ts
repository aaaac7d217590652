/**
 * End to end, one test group per row of PRODUCT.md's table "What the ERP spec leaves open,
 * and how the app copes": the sandbox ERP is switched to each behaviour the spec allows
 * (count as total or page size, `q` required or not, 429 with or without Retry-After,
 * schema drift) and the app is driven through Bolt's HTTP receiver like Slack would.
 *
 * A small recording proxy between the app and the sandbox shows what goes on the wire
 * (offset always sent, never an empty `q`, never XML or debug) and stands in for ERP
 * answers the sandbox never gives (an error body of another shape, a `count` that is the
 * `limit` asked for).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ContactRecord,
  DEFAULT_SANDBOX_SEED,
  type ItemRecord,
  type RunningSandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { freePort, type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonLabelled, buttonsOf, type FoundButton, textOf } from '../helpers/blocks.js';
import { redisAnswers } from '../helpers/redis.js';
import {
  blockActionsPayload,
  interactionForm,
  postToSlackApp,
  slashCommandForm,
} from '../helpers/slack/index.js';

type Message = { text?: string; blocks?: unknown[]; [key: string]: unknown };
type LogLine = Record<string, unknown> & { msg?: string };

const ANSWER_WAIT_MS = 8000;
const isWorkingLine = (message: Message) => textOf(message).includes(':hourglass_flowing_sand:');

/** The answer a user finally sees: on the acknowledgement, else the last response_url post. */
async function finalAnswer(run: RunningApp, responseUrl: string, ack?: Message): Promise<Message> {
  if (ack?.blocks && !isWorkingLine(ack)) return ack;
  for (let count = 1; ; count += 1) {
    const posts = await run.slack.waitForResponses(responseUrl, count, ANSWER_WAIT_MS);
    const last = posts.at(-1)?.body ?? {};
    if (!isWorkingLine(last)) return last;
  }
}

async function ask(run: RunningApp, command: string, text: string): Promise<Message> {
  const responseUrl = run.slack.responseUrl();
  const reply = await postToSlackApp(
    run.eventsUrl,
    slashCommandForm({ command, text, response_url: responseUrl }),
    { signingSecret: SIGNING_SECRET },
  );
  expect(reply.status).toBe(200);
  expect(reply.elapsedMs).toBeLessThan(1500);
  return finalAnswer(run, responseUrl, reply.json as Message | undefined);
}

async function click(run: RunningApp, button: FoundButton): Promise<Message> {
  const responseUrl = run.slack.responseUrl();
  const reply = await postToSlackApp(
    run.eventsUrl,
    interactionForm(
      blockActionsPayload({ actionId: button.action_id, value: button.value ?? '', responseUrl }),
    ),
    { signingSecret: SIGNING_SECRET },
  );
  expect(reply.status).toBe(200);
  return finalAnswer(run, responseUrl);
}

/** The list header ("*Items matching* “widget” · 1–10 of 279"). */
function listHeader(message: Message): string {
  const header = textOf({ blocks: message.blocks })
    .split('\n')
    .find((line) => /^\*(Items|Contacts) matching\*/.test(line));
  if (!header) throw new Error(`no list header in: ${textOf(message)}`);
  return header;
}

const hasButton = (message: Message, word: string) =>
  buttonsOf(message).some((b) => b.text.includes(word));

const parsedLog = (run: RunningApp): LogLine[] =>
  run.logLines.map((line) => JSON.parse(line) as LogLine);

const driftWarnings = (run: RunningApp) =>
  parsedLog(run).filter((line) => line.msg === 'ERP schema drift');

/** Sandbox records are typed to the spec's documented values; tests bend them on purpose. */
const bend = <T>(record: T) => record as unknown as Record<string, unknown>;

// ─── A recording proxy in front of the sandbox ──────────────────────────────────────────────

interface SeenRequest {
  /** The raw request target, e.g. `/api/searchItems?q=blue&limit=50&offset=0`. */
  target: string;
  headers: IncomingHttpHeaders;
}

interface ErpProxy {
  url: string;
  seen: SeenRequest[];
  /** When it returns a reply, the proxy answers with it instead of asking the ERP. */
  intercept: ((seen: SeenRequest) => { status: number; body: string } | undefined) | undefined;
  /** Rewrites the ERP's successful JSON answers. */
  rewrite: ((seen: SeenRequest, body: Record<string, unknown>) => unknown) | undefined;
  close(): Promise<void>;
}

async function startErpProxy(erpUrl: string): Promise<ErpProxy> {
  const proxy: ErpProxy = {
    url: '',
    seen: [],
    intercept: undefined,
    rewrite: undefined,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const seen: SeenRequest = { target: req.url ?? '/', headers: req.headers };
    proxy.seen.push(seen);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        ...headers,
      });
      res.end(body);
    };
    const intercepted = proxy.intercept?.(seen);
    if (intercepted) return send(intercepted.status, intercepted.body);
    const { host: _host, connection: _connection, ...forwarded } = req.headers;
    request(`${erpUrl}${seen.target}`, {
      method: 'GET',
      headers: forwarded as Record<string, string>,
    })
      .then(async (upstream) => {
        let body = await upstream.body.text();
        if (proxy.rewrite && upstream.statusCode === 200) {
          body = JSON.stringify(proxy.rewrite(seen, JSON.parse(body) as Record<string, unknown>));
        }
        const retryAfter = upstream.headers['retry-after'];
        send(
          upstream.statusCode,
          body,
          typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {},
        );
      })
      .catch(() => send(502, '{"error":"proxy"}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}

const searchesSeen = (proxy: ErpProxy, endpoint: 'searchItems' | 'searchContact') =>
  proxy.seen
    .filter((seen) => seen.target.startsWith(`/api/${endpoint}?`))
    .map((seen) => new URLSearchParams(seen.target.slice(seen.target.indexOf('?') + 1)));

// ─── Rows answered through the proxy: count, q, offset, error bodies, status, fields ────────

describe('through a recording proxy: what the app sends and how it reads answers', () => {
  let erp: RunningSandbox;
  let proxy: ErpProxy;
  let run: RunningApp;
  const HIGH = { getItem: 10_000, getContact: 10_000, searchItems: 10_000, searchContact: 10_000 };

  beforeAll(async () => {
    erp = await startSandbox({ seed: DEFAULT_SANDBOX_SEED, limits: HIGH });
    proxy = await startErpProxy(erp.url);
    run = await startApp({
      erp,
      env: {
        ERP_BASE_URL: proxy.url,
        ERP_GET_LIMIT_PER_MINUTE: '10000',
        ERP_SEARCH_LIMIT_PER_MINUTE: '10000',
      },
    });
  });
  afterAll(async () => {
    await run?.stop();
    await proxy?.close();
    await erp?.close();
  });

  /** The sandbox's own `count` for a search, asked directly (its `total` meaning). */
  async function totalMatches(keywords: string): Promise<number> {
    const auth = Buffer.from(`${erp.credentials.companyCode}:${erp.credentials.accessToken}`);
    const response = await request(`${erp.url}/api/searchItems?q=${keywords}&offset=0`, {
      headers: {
        accept: 'application/json',
        tenantid: erp.credentials.tenantId,
        authorization: `Basic ${auth.toString('base64')}`,
      },
    });
    return ((await response.body.json()) as { count: number }).count;
  }

  describe('search count: total or page size', () => {
    it('count as the page size: a full first page still offers Next, and paging past the first upstream window works', async () => {
      erp.setBehaviour({ countMeaning: 'page' });
      try {
        let page = await ask(run, '/stock', 'widget');
        expect(listHeader(page)).toMatch(/· 1–10$/);
        // Pages 2..6: the sixth starts past the first upstream window of 50 rows.
        for (let n = 2; n <= 6; n += 1) {
          page = await click(run, buttonLabelled(page, 'Next'));
          expect(listHeader(page)).toMatch(new RegExp(`· ${(n - 1) * 10 + 1}–${n * 10}$`));
          expect(hasButton(page, 'Previous')).toBe(true);
        }
        expect(hasButton(page, 'Next')).toBe(true);
        expect(listHeader(page)).not.toContain(' of ');
        const searches = searchesSeen(proxy, 'searchItems').filter((p) => p.get('q') === 'widget');
        expect(searches.map((p) => [p.get('offset'), p.get('limit')])).toEqual([
          ['0', '50'],
          ['50', '50'],
        ]);
      } finally {
        erp.setBehaviour({ countMeaning: 'total' });
      }
    });

    it('count as the total: the header says "of N"; Next follows the rows and ends with them', async () => {
      const total = await totalMatches('blue');
      expect(total).toBeGreaterThan(50);
      const blue = await ask(run, '/stock', 'blue');
      expect(listHeader(blue)).toMatch(new RegExp(`· 1–10 of ${total}$`));

      let page = await ask(run, '/stock', 'bolt');
      const bolts = await totalMatches('bolt');
      expect(bolts).toBeGreaterThan(20);
      expect(bolts).toBeLessThan(30);
      while (hasButton(page, 'Next')) page = await click(run, buttonLabelled(page, 'Next'));
      expect(listHeader(page)).toMatch(new RegExp(`· 21–${bolts}`));
    });

    it('a count that is the limit asked for is not shown as a total', async () => {
      proxy.rewrite = (seen, body) =>
        seen.target.startsWith('/api/searchItems?') ? { ...body, count: body.limit } : body;
      try {
        const first = await ask(run, '/stock', 'cable');
        const rows = await totalMatches('cable');
        expect(rows).toBeGreaterThan(10);
        expect(rows).toBeLessThan(50);
        // The ERP said count 50 for a window of fewer rows: not a total. The short window is
        // the last one, so its rows are the total.
        expect(listHeader(first)).toMatch(new RegExp(`· 1–10 of ${rows}$`));
        const last = await click(run, buttonLabelled(first, 'Next'));
        // On the last page the rows themselves tell the total; never the 50.
        expect(listHeader(last)).toMatch(new RegExp(`· 11–${rows} of ${rows}$`));
        expect(hasButton(last, 'Next')).toBe(false);
      } finally {
        proxy.rewrite = undefined;
      }
    });
  });

  describe('whether q is required', () => {
    it('q required: filters alone are tried once, and the 400 becomes "add a keyword"', async () => {
      erp.setBehaviour({ requireQuery: true });
      const before = searchesSeen(proxy, 'searchItems').length;
      const stock = await ask(run, '/stock', 'category:3');
      expect(textOf(stock)).toMatch(/add a keyword/);
      expect(textOf(stock)).not.toMatch(/400|Bad Request|invalid/i);
      expect(searchesSeen(proxy, 'searchItems').length).toBe(before + 1);
      const contact = await ask(run, '/contact', 'type:supplier');
      expect(textOf(contact)).toMatch(/add a keyword/);
    });

    it('q optional: the same commands list what the filters allow', async () => {
      erp.setBehaviour({ requireQuery: false });
      try {
        const stock = await ask(run, '/stock', 'category:3');
        expect(listHeader(stock)).toMatch(/your filters · category 3 · 1–10/);
        expect(textOf(stock)).toContain('Fasteners');
        const contact = await ask(run, '/contact', 'type:supplier');
        expect(listHeader(contact)).toMatch(/your filters · suppliers · 1–10/);
      } finally {
        erp.setBehaviour({ requireQuery: true });
      }
    });

    it('never sends q without a keyword: no q at all, or a non-empty one', () => {
      const searches = [
        ...searchesSeen(proxy, 'searchItems'),
        ...searchesSeen(proxy, 'searchContact'),
      ];
      expect(searches.length).toBeGreaterThan(0);
      for (const params of searches) {
        const q = params.get('q');
        if (q !== null) expect(q.trim()).not.toBe('');
      }
      expect(searches.some((params) => !params.has('q'))).toBe(true);
    });
  });

  describe('error body shape', () => {
    it('never shows an error body to the user; logs it truncated, without the access token', async () => {
      const token = erp.credentials.accessToken;
      const body = JSON.stringify({
        fault: { detail: `token ${token} rejected <!channel>`, trace: 'x'.repeat(2000) },
      });
      proxy.intercept = (seen) =>
        seen.target.startsWith('/api/getItem/ERRBODY-1') ? { status: 500, body } : undefined;
      try {
        const answer = await ask(run, '/stock', 'ERRBODY-1');
        const text = textOf(answer);
        expect(text).toMatch(/ERP is not answering/);
        for (const leaked of ['fault', 'rejected', 'channel', 'xxxx', token, '500']) {
          expect(text).not.toContain(leaked);
        }
        const logged = parsedLog(run)
          .map((line) => (line.erp as { body?: string } | undefined)?.body)
          .filter((snippet): snippet is string => snippet?.includes('fault') ?? false);
        expect(logged.length).toBeGreaterThan(0);
        for (const snippet of logged) {
          expect(snippet.length).toBeLessThanOrEqual(201);
          expect(snippet.endsWith('…')).toBe(true);
          expect(snippet).not.toContain(token);
        }
      } finally {
        proxy.intercept = undefined;
      }
    });

    it('logs no personal data from a contact answer that is not JSON', async () => {
      const acme = erp.data.contacts.find((c) => c.record.code === 'ACME01')?.record;
      if (!acme) throw new Error('no ACME01 in the sandbox');
      // The ERP may put the personal fields first: a cut-off body then starts with them.
      const { telephone, email, ...rest } = acme;
      const cut = JSON.stringify({ telephone, email, ...rest }).slice(0, 400);
      expect(cut.slice(0, 150)).toContain(telephone);
      proxy.intercept = (seen) =>
        seen.target.startsWith('/api/getContact/ACME01') ? { status: 200, body: cut } : undefined;
      try {
        expect(textOf(await ask(run, '/contact', 'ACME01'))).toMatch(/unexpected data/);
        const everything = run.logLines.join('\n');
        expect(everything).toContain('(body)');
        for (const personal of [acme.telephone, acme.email, acme.company]) {
          if (personal) expect(everything).not.toContain(personal);
        }
      } finally {
        proxy.intercept = undefined;
      }
    });

    it('reads a 400 with an HTML body as a refused code, showing none of it', async () => {
      proxy.intercept = (seen) =>
        seen.target.startsWith('/api/getItem/ODD-400')
          ? {
              status: 400,
              body: '<html><body><h1>Bad Request</h1>stack at X.java:12</body></html>',
            }
          : undefined;
      try {
        const text = textOf(await ask(run, '/stock', 'ODD-400'));
        expect(text).toMatch(/refused that code/);
        expect(text).not.toMatch(/html|java|Bad Request/);
      } finally {
        proxy.intercept = undefined;
      }
    });
  });

  describe('numeric status, supplierCodes, account fields and unknown fields', () => {
    let item: ItemRecord;
    let contact: ContactRecord;
    let customerFilter: string;

    let driftBefore = 0;

    beforeAll(() => {
      driftBefore = driftWarnings(run).length;
      item = erp.data.items[1500]?.record as ItemRecord;
      Object.assign(bend(item), {
        status: 7,
        status_label: 'Obsolete',
        supplierCodes: [
          'SC-1',
          { supplier: 'Acme', code: 'SC-2' },
          { code: 5 },
          ['SC-NESTED'],
          null,
          {},
          '<!channel>',
        ],
        // Fields a later ERP version might add: ignored.
        warehouse_zone: { aisle: 3, bay: 'B' },
      });
      Object.assign(bend(item.branches[0]), { bin: 'A-01' });

      const found = erp.data.contacts.find((c) => c.record.account_type === 'Customer');
      contact = found?.record as ContactRecord;
      customerFilter = 'type:client';
      Object.assign(bend(contact), {
        status: 9,
        status_label: 'On hold',
        abn: 'N/A <pending>',
        address4: 'Level 3 & rear',
        terms: 'C.O.D.',
        discount: 12.345,
        stopcred: -1,
        loyalty_tier: 'gold',
      });
      const person = contact.addressbook[0];
      if (person) Object.assign(bend(person), { nickname: 'Shorty' });
    });

    it('shows an undocumented status label as given, on cards and in lists', async () => {
      const card = textOf(await ask(run, '/stock', item.code));
      expect(card).toContain('*Status*\nObsolete');
      const list = textOf(
        await ask(run, '/stock', `${item.code} category:${erp.data.items[1500]?.categoryId}`),
      );
      expect(list).toMatch(new RegExp(`${item.code}.*· Obsolete`));

      const contactCardText = textOf(await ask(run, '/contact', contact.code));
      expect(contactCardText).toContain(' · On hold');
      const contacts = textOf(await ask(run, '/contact', `${contact.code} ${customerFilter}`));
      expect(contacts).toMatch(new RegExp(`${contact.code}.*· On hold`));
    });

    it('shows supplierCodes only where readable', async () => {
      const card = textOf(await ask(run, '/stock', item.code));
      expect(card).toContain('*Supplier codes*\n`SC-1`, `SC-2`, `&lt;!channel&gt;`');
      for (const unreadable of ['SC-NESTED', '[object', '<!channel>']) {
        expect(card).not.toContain(unreadable);
      }
    });

    it('shows abn, address4, terms, discount and stopcred as given under neutral labels', async () => {
      const card = textOf(await ask(run, '/contact', contact.code));
      for (const expected of [
        '*ABN*\nN/A &lt;pending&gt;',
        '*Address 4*\nLevel 3 &amp; rear',
        '*Terms*\nC.O.D.',
        '*Discount*\n12.345',
        '*Stopcred*\n-1',
      ]) {
        expect(card).toContain(expected);
      }
    });

    it('ignores unknown fields: the cards render and no drift is logged', async () => {
      expect(textOf(await ask(run, '/stock', item.code))).toContain(item.code);
      expect(textOf(await ask(run, '/contact', contact.code))).toContain(contact.code);
      expect(driftWarnings(run).slice(driftBefore)).toEqual([]);
      expect(run.logLines.join('\n')).not.toMatch(/warehouse_zone|loyalty_tier|nickname|Shorty/);
    });
  });

  describe('no webhooks: freshness from the cache lifetime and the Refresh button', () => {
    it('serves the cached card until Refresh fetches the change', async () => {
      const record = erp.data.items[1501]?.record as ItemRecord;
      const first = await ask(run, '/stock', record.code);
      const before = record.available;
      expect(textOf(first)).toContain(`*Available*\n`);
      record.soh += 1000;
      record.available += 1000;
      const again = textOf(await ask(run, '/stock', record.code));
      expect(again).toContain('from cache');
      expect(again).not.toContain(String(before + 1000));
      const refreshed = textOf(await click(run, buttonLabelled(first, 'Refresh')));
      expect(refreshed).toContain((before + 1000).toLocaleString('en-US'));
    });
  });

  describe('XML and debug are never requested', () => {
    it('asked for JSON on every call: no Xmlresponse header, no debug, offset on every search', () => {
      expect(proxy.seen.length).toBeGreaterThan(10);
      for (const seen of proxy.seen) {
        expect(seen.headers.accept).toBe('application/json');
        expect(seen.headers.xmlresponse).toBeUndefined();
        expect(seen.target).not.toMatch(/[?&]debug(=|&|$)/);
      }
      const searches = [
        ...searchesSeen(proxy, 'searchItems'),
        ...searchesSeen(proxy, 'searchContact'),
      ];
      expect(searches.length).toBeGreaterThan(5);
      for (const params of searches) expect(params.get('offset')).toMatch(/^\d+$/);
    });
  });
});

// ─── Versioning: a changed or missing field ─────────────────────────────────────────────────

describe('schema drift: "ERP returned unexpected data", logged once with its path', () => {
  let run: RunningApp;
  const ITEM_FIELDS = ['soh', 'available', 'has_bom', 'branches', 'code', 'cost'];
  const SEARCH_FIELDS = ['items.*.available', 'items.*.code', 'items.*.has_kit', 'count'];
  const ALLOWED_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'component', 'msg']);
  for (const key of ['endpoint', 'field', 'problem']) ALLOWED_KEYS.add(key);

  beforeAll(async () => {
    run = await startApp({ sandbox: { seed: DEFAULT_SANDBOX_SEED, faults: { driftRate: 1 } } });
  });
  afterAll(async () => {
    await run?.stop();
  });

  function expectPathsOnly(line: LogLine) {
    for (const key of Object.keys(line)) expect(ALLOWED_KEYS).toContain(key);
    expect(String(line.field)).toMatch(/^[\w.*()]+$/);
    // zod's words ("expected number, received string"), never the value that came.
    expect(String(line.problem)).not.toMatch(/\d|"/);
  }

  it('tells the user, and warns once per drifted field with its path and no values', async () => {
    const widget = run.sandbox.data.items.find((i) => i.record.code === 'WIDGET-9')?.record;
    for (let i = 0; i < 3; i += 1) {
      const text = textOf(await ask(run, '/stock', 'WIDGET-9'));
      expect(text).toMatch(/ERP returned unexpected data/);
      expect(text).not.toMatch(/\b(soh|available|branches|cost|has_bom|received)\b/);
    }
    const warnings = driftWarnings(run);
    expect(warnings.length).toBeGreaterThan(0);
    const fields = warnings.map((line) => `${line.endpoint} ${line.field}`);
    expect(new Set(fields).size).toBe(fields.length);
    for (const line of warnings) {
      expect(line.endpoint).toBe('getItem');
      expect(ITEM_FIELDS).toContain(line.field);
      expectPathsOnly(line);
    }
    const everything = run.logLines.join('\n');
    expect(everything).not.toContain(widget?.description);
  });

  it('the same drifted field, seen again and again, is one warning', async () => {
    run.sandbox.setFaults({ driftRate: 0 });
    const record = run.sandbox.data.items[300]?.record;
    if (!record) throw new Error('no item 300 in the sandbox');
    const original = record.onorder;
    bend(record).onorder = 'twelve';
    try {
      const before = driftWarnings(run).length;
      for (let i = 0; i < 3; i += 1) {
        expect(textOf(await ask(run, '/stock', record.code))).toMatch(/unexpected data/);
      }
      const added = driftWarnings(run).slice(before);
      expect(added.map((line) => [line.endpoint, line.field])).toEqual([['getItem', 'onorder']]);
      expect(run.logLines.join('\n')).not.toContain('twelve');
    } finally {
      record.onorder = original;
      run.sandbox.setFaults({ driftRate: 1 });
    }
  });

  it('a drifted search and a body that is not JSON get the same message; then it serves again', async () => {
    const search = textOf(await ask(run, '/stock', 'blue widget'));
    expect(search).toMatch(/ERP returned unexpected data/);
    const searchWarnings = driftWarnings(run).filter((line) => line.endpoint === 'searchItems');
    expect(searchWarnings).toHaveLength(1);
    expect(SEARCH_FIELDS).toContain(searchWarnings[0]?.field);

    run.sandbox.setFaults({ driftRate: 0, malformedRate: 1 });
    const malformed = textOf(await ask(run, '/stock', 'WIDGET-9-CORE'));
    expect(malformed).toMatch(/ERP returned unexpected data/);
    expect(driftWarnings(run).some((line) => line.field === '(body)')).toBe(true);

    run.sandbox.setFaults({ malformedRate: 0 });
    expect(textOf(await ask(run, '/stock', 'WIDGET-9'))).toContain('*Available*');
  });
});

// ─── Retry-timing headers on 429 ────────────────────────────────────────────────────────────

describe('a 429 from the ERP, with and without Retry-After', () => {
  let run: RunningApp;
  let codes: string[];

  beforeAll(async () => {
    // The ERP allows 1 getItem a second; the app believes it may make many, so only the
    // ERP's 429 can hold it back.
    run = await startApp({
      sandbox: {
        seed: DEFAULT_SANDBOX_SEED,
        limits: { getItem: 1, windowMs: 1000 },
        behaviour: { retryAfter: true },
      },
      env: { ERP_GET_LIMIT_PER_MINUTE: '1000', QUEUE_MAX_WAIT_SECONDS: '5' },
    });
    codes = run.sandbox.data.items.slice(100, 105).map((i) => i.record.code);
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('with Retry-After: waits as told, retries once, and the user gets the card', async () => {
    const [first, second] = codes;
    expect(textOf(await ask(run, '/stock', first ?? ''))).toContain(first);
    const started = Date.now();
    const answer = await ask(run, '/stock', second ?? '');
    expect(textOf(answer)).toContain(second);
    expect(hasButton(answer, 'Refresh')).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(run.sandbox.stats().rateLimited).toBe(1);
    const paused = parsedLog(run).filter((line) => String(line.msg).startsWith('ERP answered 429'));
    expect(paused.map((line) => line.retryAfterMs)).toEqual([1000]);
  });

  it('without Retry-After: pauses the endpoint for the window, says "busy", and does not hammer the ERP', async () => {
    run.sandbox.setBehaviour({ retryAfter: false });
    run.sandbox.resetLimits();
    const [, , third, fourth, fifth] = codes;
    expect(textOf(await ask(run, '/stock', third ?? ''))).toContain(third);
    const limitedBefore = run.sandbox.stats().rateLimited;

    const busy = textOf(await ask(run, '/stock', fourth ?? ''));
    expect(busy).toMatch(/Lots of lookups right now; try again in about/);
    expect(run.sandbox.stats().rateLimited).toBe(limitedBefore + 1);
    const paused = parsedLog(run).filter((line) => String(line.msg).startsWith('ERP answered 429'));
    expect(paused.at(-1)).toMatchObject({ waitMs: 60_000 });

    // The pause holds for everyone: no further getItem reaches the ERP...
    const calls = run.sandbox.stats().requests.getItem ?? 0;
    expect(textOf(await ask(run, '/stock', fifth ?? ''))).toMatch(/Lots of lookups/);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(calls);
    expect(run.sandbox.stats().rateLimited).toBe(limitedBefore + 1);
    // ...while what is cached is still answered.
    expect(textOf(await ask(run, '/stock', third ?? ''))).toContain('from cache');
  });
});

// ─── Rate-limit identity: one budget per credential, across replicas ────────────────────────

const redisBinary = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find(existsSync);

describe.skipIf(!redisBinary)('one budget per credential, shared by two replicas', () => {
  let redis: ChildProcess | undefined;
  let erp: RunningSandbox;
  let replicas: RunningApp[] = [];

  beforeAll(async () => {
    const port = await freePort();
    redis = spawn(
      redisBinary ?? 'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const url = `redis://127.0.0.1:${port}`;
    const started = Date.now();
    while (!(await redisAnswers(url))) {
      if (Date.now() - started > 5000) throw new Error('redis-server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The ERP's real limit per minute, and the app told the same: together, not each.
    erp = await startSandbox({ seed: DEFAULT_SANDBOX_SEED, limits: { getItem: 3 } });
    const env = { REDIS_URL: url, ERP_GET_LIMIT_PER_MINUTE: '3', QUEUE_MAX_WAIT_SECONDS: '1' };
    replicas = [await startApp({ erp, env }), await startApp({ erp, env })];
    const ready = () => replicas.every((r) => r.services.health().redis === 'ready');
    while (!ready()) {
      if (Date.now() - started > 5000) throw new Error('the replicas did not reach Redis');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await erp?.close();
    if (redis && redis.exitCode === null) {
      const exited = once(redis, 'exit');
      redis.kill('SIGTERM');
      await exited;
    }
  });

  it('the fourth lookup across both replicas waits or is "busy", and the ERP never answers 429', async () => {
    const [a, b] = replicas;
    if (!a || !b) throw new Error('replicas did not start');
    const codes = erp.data.items.slice(200, 204).map((i) => i.record.code);
    const answers = [];
    for (const [replica, code] of [
      [a, codes[0]],
      [b, codes[1]],
      [a, codes[2]],
      [b, codes[3]],
    ] as const) {
      answers.push(textOf(await ask(replica, '/stock', code ?? '')));
    }
    for (let i = 0; i < 3; i += 1) expect(answers[i]).toContain(codes[i]);
    expect(answers[3]).toMatch(/Lots of lookups right now/);
    expect(erp.stats().requests.getItem).toBe(3);
    expect(erp.stats().rateLimited).toBe(0);
  });
});
