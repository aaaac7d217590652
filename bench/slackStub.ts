/**
 * Just enough of Slack for the benchmark's app processes: `auth.test` at start-up and
 * response_urls that record when each answer arrived. Kept apart from the test fakes so the
 * benchmark measures the app, not a test helper's bookkeeping.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackStub {
  apiUrl: string;
  /** A fresh response_url; its deliveries land in `delivered`. */
  responseUrl(id: string): string;
  /** Per response_url id: arrival times (performance.now()), bodies, and whether a card. */
  delivered: Map<string, Delivery[]>;
  /** Messages posted with chat.postMessage (watch confirmations and alerts). */
  readonly posts: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface Delivery {
  at: number;
  /** The body; only its start unless `keepWhole(id)`. */
  body: string;
  card: boolean;
}

export async function startSlackStub(
  isCard: (body: string) => boolean,
  keepWhole: (id: string) => boolean = () => true,
): Promise<SlackStub> {
  const delivered = new Map<string, Delivery[]>();
  let posts = 0;
  const server: Server = createServer((req, res) => {
    readBody(req).then(
      (body) => {
        const url = req.url ?? '';
        res.setHeader('content-type', 'application/json');
        if (url.startsWith('/response/')) {
          const id = decodeURIComponent(url.slice('/response/'.length));
          const list = delivered.get(id) ?? [];
          // The memory run sends 100,000 of these: keep whole bodies only where asked.
          list.push({
            at: performance.now(),
            body: keepWhole(id) ? body : body.slice(0, 500),
            card: isCard(body),
          });
          delivered.set(id, list);
          res.end('{"ok":true}');
          return;
        }
        if (url.startsWith('/api/auth.test')) {
          res.end(
            JSON.stringify({
              ok: true,
              url: 'https://bench.slack.com/',
              team: 'Bench',
              user: 'erp-lookups',
              team_id: 'T0BENCH',
              user_id: 'U0BOT',
              bot_id: 'B0BOT',
            }),
          );
          return;
        }
        if (url.startsWith('/api/users.info')) {
          // A full member of the workspace, as Slack answers for most people: the app caches
          // it, so a cached /stock measures the cached path, not a users.info call a request.
          const user = new URLSearchParams(body).get('user') ?? 'U0BENCH';
          res.end(
            JSON.stringify({
              ok: true,
              user: { id: user, team_id: 'T0BENCH', deleted: false, is_bot: false },
            }),
          );
          return;
        }
        if (url.startsWith('/api/chat.postMessage')) {
          // The watches keep each alert's ts, to update it in place later.
          posts += 1;
          res.end(JSON.stringify({ ok: true, ts: `1700000000.${String(posts).padStart(6, '0')}` }));
          return;
        }
        res.end('{"ok":true}');
      },
      () => res.end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    apiUrl: `${base}/api/`,
    responseUrl: (id) => `${base}/response/${encodeURIComponent(id)}`,
    delivered,
    get posts() {
      return posts;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
