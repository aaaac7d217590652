/**
 * `npx tsx bench/profile.ts [seconds] [bare|mirror] [node flags…]`: the cached /stock path
 * under load with `node --cpu-prof`, for finding what a cached answer costs. Writes the
 * .cpuprofile to bench/results/profile/ and prints the heaviest functions by self time.
 * `bare` profiles the bare Bolt app instead, for comparison; `mirror` the bare Bolt app with
 * the app's listeners as no-ops (bench/boltMirror.mjs) answering the card of the last
 * `npm run bench` (bench/results/card.json). Further arguments go to node, such as the start
 * script's heap flags.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../src/sandbox/index.js';
import { appPool, BOT_TOKEN, closedLoop, SIGNING_SECRET, signedStock } from './load.js';
import { freePort } from './procs.js';
import { startSlackStub } from './slackStub.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'bench/results/profile');
mkdirSync(out, { recursive: true });
const seconds = Number(process.argv[2] ?? 8);
const against = process.argv[3];
const bare = against === 'bare' || against === 'mirror';
const card = join(root, 'bench/results/card.json');
const mirrorEnv =
  against === 'mirror'
    ? { BENCH_BARE_LISTENERS: 'app', ...(existsSync(card) ? { BENCH_BARE_CARD: card } : {}) }
    : {};
const slack = await startSlackStub(() => false);
const sandbox = await startSandbox();
const port = await freePort();
const child = spawn(
  process.execPath,
  [
    ...process.argv.slice(4),
    '--cpu-prof',
    `--cpu-prof-dir=${out}`,
    ...(bare ? ['bench/bare-bolt.mjs'] : ['--enable-source-maps', 'dist/main.js']),
  ],
  {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      ERP_BASE_URL: sandbox.url,
      ERP_COMPANY_CODE: sandbox.credentials.companyCode,
      ERP_ACCESS_TOKEN: sandbox.credentials.accessToken,
      ERP_TENANT_ID: sandbox.credentials.tenantId,
      ...mirrorEnv,
    },
  },
);
await new Promise((resolve) => setTimeout(resolve, 4_000));
const pool = appPool(port, 16);
const code = sandbox.data.items[0]?.record.code ?? 'WIDGET-9';
const url = slack.responseUrl('profile');
const result = await closedLoop(
  pool,
  16,
  seconds,
  () => signedStock(code, url),
  (reply) => reply.status === 200,
);
process.stdout.write(`${result.ok} answers in ${result.seconds.toFixed(1)} s\n`);
await pool.close();
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
await sandbox.close();
await slack.close();

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = readdirSync(out)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort()
  .at(-1);
if (!file) throw new Error('no profile written');
const profile = JSON.parse(readFileSync(join(out, file), 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const self = new Map<number, number>();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
const byFrame = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const count = self.get(node.id) ?? 0;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*node_modules\//, '').replace(`file://${root}`, '');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  byFrame.set(key, (byFrame.get(key) ?? 0) + count);
  const pkg = url.includes('node_modules/')
    ? (url
        .split('node_modules/')[1]
        ?.split('/')
        .slice(0, url.includes('node_modules/@') ? 2 : 1)
        .join('/') ?? '?')
    : url.startsWith('node:')
      ? 'node:*'
      : url.includes('/dist/')
        ? `dist/${url.split('/dist/')[1]?.split('/')[0]}`
        : functionName || '(program)';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + count);
}
const total = profile.samples.length;
// Microseconds per sample; self time per answer in ms, for comparing two profiles.
const perSample = profile.timeDeltas.reduce((sum, d) => sum + d, 0) / Math.max(1, total);
const perAnswer = (count: number) =>
  ((count * perSample) / 1000 / Math.max(1, result.ok)).toFixed(3);
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([key, count]) =>
        `${((count / total) * 100).toFixed(1).padStart(5)}%  ${perAnswer(count)} ms/answer  ${key}`,
    )
    .join('\n');
process.stdout.write(
  `\nBy package (self time):\n${top(byPackage, 25)}\n\nBy function:\n${top(byFrame, 40)}\n`,
);
