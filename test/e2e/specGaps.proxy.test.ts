/**
 * End to end, the rows of docs/erp-api.md's table "What the API description leaves open, and how the app
 * copes" that show on the wire: count as total or page size, `q` required or not, error
 * bodies of another shape, numeric status and unknown fields, freshness without webhooks, and
 * JSON only. The sandbox ERP is switched to each behaviour the spec allows and the app is
 * driven through Bolt's HTTP receiver like Slack would, with a recording proxy in between
 * (helpers/recordingProxy.ts). The other rows: specGaps.drift.test.ts and
 * specGaps.rateLimits.test.ts.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ContactRecord,
  DEFAULT_SANDBOX_SEED,
  type ItemRecord,
  type RunningSandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonLabelled, textOf } from '../helpers/blocks.js';
import {
  ask,
  bend,
  click,
  driftWarnings,
  hasButton,
  listHeader,
  parsedLog,
} from './helpers/conversation.js';
import { type ErpProxy, searchesSeen, startErpProxy } from './helpers/recordingProxy.js';

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
    it('q required: filters alone are tried once, and the 400 says what to add', async () => {
      erp.setBehaviour({ requireQuery: true });
      const before = searchesSeen(proxy, 'searchItems').length;
      const stock = await ask(run, '/stock', 'category:3');
      expect(textOf(stock)).toMatch(/add one to category:3, e\.g\. \/stock bolt category:3/);
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
      expect(card).toMatch(/· Obsolete/);
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
      expect(card).toContain('Supplier codes `SC-1`, `SC-2`, `&lt;!channel&gt;`');
      for (const unreadable of ['SC-NESTED', '[object', '<!channel>']) {
        expect(card).not.toContain(unreadable);
      }
    });

    it('shows abn, address4, terms, discount and stopcred as given under neutral labels', async () => {
      const card = textOf(await ask(run, '/contact', contact.code));
      for (const expected of [
        'ABN N/A &lt;pending&gt;',
        'Level 3 &amp; rear',
        'Terms C.O.D.',
        'Discount 12.345',
        ':warning: *On stop credit: check before shipping*',
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
      expect(textOf(first)).toContain(' available*');
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
