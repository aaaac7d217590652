/**
 * The app as Slack meets it, against a bare Bolt app answering a constant: both started from
 * this process the way `npm start` starts them, both behind Bolt's HTTP receiver with the same
 * signature check, measured in turns (ABAB) so the machine's other load falls on both alike.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from 'undici';
import { type RunningSandbox, startSandbox } from '../src/sandbox/index.js';
import { MIRRORED_LISTENERS } from './boltMirror.mjs';
import { startErpStub } from './erpStub.js';
import {
  appPool,
  BOT_TOKEN,
  closedLoop,
  post,
  type Reply,
  SIGNING_SECRET,
  signedStock,
} from './load.js';
import { type AppCommand, type RunningApp, startApp } from './procs.js';
import { startSlackStub } from './slackStub.js';
import { percentile, seeded } from './workload.js';

export interface AppSectionOptions {
  quick: boolean;
  /** Where the bench writes its files (bench/results/). */
  resultsDir: string;
  ours: AppCommand;
  bare: AppCommand;
  /**
   * The same two with node's default heap settings, when the start script sets its own
   * (docs/benchmarks.md "Memory"): what those settings cost in CPU, apart from what our code costs.
   */
  defaultHeap?: { ours: AppCommand; bare: AppCommand };
  progress: (line: string) => void;
}

export interface AppFigures {
  throughput: {
    ours: number;
    bare: number;
    ratio: number;
    oursWrong: number;
    bareWrong: number;
    /** The load generator's CPU per request, against each. */
    loaderMs: { ours: number; bare: number };
  };
  cpuPerRequest: { oursMs: number; bareMs: number; ratio: number };
  /**
   * The same bare Bolt app acknowledging with our card (its JSON taken from our own answer):
   * what answering with a card of that size costs Bolt and Node, whatever the code behind it.
   */
  cardFloor: { rps: number; cpuMs: number; throughputRatio: number; cpuRatio: number };
  /**
   * The same again with the app's Bolt listeners and their middleware registered as no-ops
   * (bench/boltMirror.mjs): what Bolt's dispatch over the app's surfaces costs on top of the
   * card, whatever the listeners do. Ours against it is what the app's own code costs.
   */
  boltFloor: {
    rps: number;
    cpuMs: number;
    throughputRatio: number;
    cpuRatio: number;
    /** Its CPU against bare Bolt's constant (pairs of the same round). */
    vsConstant: number;
    listeners: number;
  };
  /** Ours against bare Bolt, both with node's default heap settings (when ours sets its own). */
  defaultHeap?: { oursMs: number; bareMs: number; cpuRatio: number; throughputRatio: number };
  idleRssMiB: { ours: number; bare: number; processes: number };
  coldStartMs: { ours: number; bare: number; ratio: number };
  peak: {
    lookups: number;
    codes: number;
    peakMiB: number;
    /** RSS at each quarter of the run, MiB. */
    quartersMiB: number[];
    cards: number;
    /** Of the cards, those that came after the acknowledgement (waited over a second). */
    cardsLater: number;
    other: number;
    failed: number;
    upstream: number;
    /**
     * Acknowledgements at about 100,000 lookups a minute, every one through the budget's
     * estimates (issue 13's budget row: O(1) each, src/lookup/ledger.ts).
     */
    ackP99Ms: number;
    seconds: number;
  };
  burst: {
    commands: number;
    erpLatencyMs: number;
    lastCardMs: number;
    ackP99Ms: number;
    cards: number;
    busy: number;
    errors: number;
    lost: number;
    rateLimited: number;
    upstream: number;
    blockKitViolations: number;
    /** The text of the first answer that was not a card, to say what it was. */
    firstOther: string | undefined;
  };
}

const MiB = 1024 * 1024;
const median = (values: readonly number[]) => percentile(values, 50);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A card carries its Share button; a working line, a busy or an error answer does not. (Its
 * text says what is on hand, but a long description may cut that off.)
 */
export const isCard = (body: string) => body.includes('"action_id":"stock_share"');

function erpEnv(url: string, sandbox: RunningSandbox): Record<string, string> {
  return {
    ERP_BASE_URL: url,
    ERP_COMPANY_CODE: sandbox.credentials.companyCode,
    ERP_ACCESS_TOKEN: sandbox.credentials.accessToken,
    ERP_TENANT_ID: sandbox.credentials.tenantId,
  };
}

const textOf = (body: string): string => {
  try {
    return String((JSON.parse(body) as { text?: unknown }).text ?? '(no text)');
  } catch {
    return body.slice(0, 200);
  }
};

/** Block Kit's limits on what we send: 50 blocks, 3,000 characters of section text. */
function blockKitViolations(body: string): number {
  let parsed: { blocks?: Array<{ text?: { text?: string } }> };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return 0;
  }
  const blocks = parsed.blocks ?? [];
  let violations = blocks.length > 50 ? 1 : 0;
  for (const block of blocks) if ((block.text?.text?.length ?? 0) > 3000) violations += 1;
  return violations;
}

interface Phase {
  rps: number;
  cpuMsPerRequest: number;
  /** This process's CPU per request: reading a card costs the load generator more. */
  loaderMsPerRequest: number;
  wrong: number;
}

async function loadPhase(
  app: RunningApp,
  pool: Pool,
  seconds: number,
  text: string,
  responseUrl: string,
  ok: (reply: Reply) => boolean,
): Promise<Phase> {
  // One signature a second is what Slack's clock allows; reuse it within the second.
  let signed = signedStock(text, responseUrl);
  let signedAt = Date.now();
  const cpuBefore = app.sample().cpuMs;
  const loaderBefore = process.cpuUsage();
  const result = await closedLoop(
    pool,
    16,
    seconds,
    () => {
      if (Date.now() - signedAt > 1000) {
        signed = signedStock(text, responseUrl);
        signedAt = Date.now();
      }
      return signed;
    },
    ok,
  );
  const cpuMs = app.sample().cpuMs - cpuBefore;
  const loader = process.cpuUsage(loaderBefore);
  const done = Math.max(1, result.ok + result.wrong);
  return {
    rps: result.ok / result.seconds,
    cpuMsPerRequest: cpuMs / done,
    loaderMsPerRequest: (loader.user + loader.system) / 1000 / done,
    wrong: result.wrong + result.failed,
  };
}

export async function runAppSection(options: AppSectionOptions): Promise<AppFigures> {
  const { quick, ours, bare, progress } = options;
  const slack = await startSlackStub(isCard, (id) => id.startsWith('burst-'));
  const sandbox = await startSandbox();
  const stub = await startErpStub(sandbox);
  const sample = sandbox.data.items[0]?.record.code ?? 'WIDGET-9';
  const slackEnv = {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
  };
  const oursEnv = {
    ...slackEnv,
    ...erpEnv(sandbox.url, sandbox),
  };
  try {
    // Cold starts and idle RSS, in turns.
    const starts = { ours: [] as number[], bare: [] as number[] };
    const idle = { ours: [] as number[], bare: [] as number[], processes: 0 };
    const rounds = quick ? 1 : 3;
    let oursApp: RunningApp | undefined;
    let bareApp: RunningApp | undefined;
    for (let round = 0; round < rounds; round += 1) {
      for (const [which, command, env] of [
        ['ours', ours, oursEnv],
        ['bare', bare, slackEnv],
      ] as const) {
        const app = await startApp(command, env);
        starts[which].push(app.startMs);
        await sleep(2_000);
        const tree = app.sample();
        idle[which].push(tree.rssBytes / MiB);
        if (which === 'ours') idle.processes = tree.processes;
        if (round < rounds - 1) await app.stop();
        else if (which === 'ours') oursApp = app;
        else bareApp = app;
      }
      progress(
        `  start ${round + 1}/${rounds}: ours ${starts.ours.at(-1)?.toFixed(0)} ms, bare Bolt ${starts.bare.at(-1)?.toFixed(0)} ms`,
      );
    }
    if (!oursApp || !bareApp) throw new Error('no app left running');

    // Cached /stock throughput and CPU per request, ABAB (and C: bare Bolt sending our card).
    const oursPool = appPool(oursApp.port, 16);
    const barePool = appPool(bareApp.port, 16);
    const responseUrl = slack.responseUrl('throughput');
    const oursOk = (reply: Reply) => reply.status === 200 && isCard(reply.body);
    const bareOk = (reply: Reply) => reply.status === 200 && reply.body.includes('in stock');
    // Warm up both (the cache entry, and the JIT: our code takes a few seconds of load to be
    // compiled, so a short warm-up measured compilation, not answers) before measuring.
    const warmUp = quick ? 3 : 5;
    await loadPhase(oursApp, oursPool, warmUp, sample, responseUrl, oursOk);
    await loadPhase(bareApp, barePool, warmUp, sample, responseUrl, bareOk);
    const cardFile = join(options.resultsDir, 'card.json');
    mkdirSync(options.resultsDir, { recursive: true });
    writeFileSync(cardFile, (await post(oursPool, signedStock(sample, responseUrl))).body);
    const cardApp = await startApp(bare, { ...slackEnv, BENCH_BARE_CARD: cardFile });
    const cardPool = appPool(cardApp.port, 16);
    await loadPhase(cardApp, cardPool, warmUp, sample, responseUrl, oursOk);
    const mirrorApp = await startApp(bare, {
      ...slackEnv,
      BENCH_BARE_CARD: cardFile,
      BENCH_BARE_LISTENERS: 'app',
    });
    const mirrorPool = appPool(mirrorApp.port, 16);
    await loadPhase(mirrorApp, mirrorPool, warmUp, sample, responseUrl, oursOk);
    const plain = options.defaultHeap
      ? {
          ours: await startApp(options.defaultHeap.ours, oursEnv),
          bare: await startApp(options.defaultHeap.bare, slackEnv),
        }
      : undefined;
    const plainPools = plain && {
      ours: appPool(plain.ours.port, 16),
      bare: appPool(plain.bare.port, 16),
    };
    if (plain && plainPools) {
      await loadPhase(plain.ours, plainPools.ours, warmUp, sample, responseUrl, oursOk);
      await loadPhase(plain.bare, plainPools.bare, warmUp, sample, responseUrl, bareOk);
    }
    const phases = {
      ours: [] as Phase[],
      bare: [] as Phase[],
      card: [] as Phase[],
      mirror: [] as Phase[],
      plainOurs: [] as Phase[],
      plainBare: [] as Phase[],
    };
    const seconds = quick ? 2 : 6;
    for (let round = 0; round < (quick ? 2 : 3); round += 1) {
      phases.ours.push(await loadPhase(oursApp, oursPool, seconds, sample, responseUrl, oursOk));
      phases.bare.push(await loadPhase(bareApp, barePool, seconds, sample, responseUrl, bareOk));
      phases.card.push(await loadPhase(cardApp, cardPool, seconds, sample, responseUrl, oursOk));
      phases.mirror.push(
        await loadPhase(mirrorApp, mirrorPool, seconds, sample, responseUrl, oursOk),
      );
      if (plain && plainPools) {
        phases.plainOurs.push(
          await loadPhase(plain.ours, plainPools.ours, seconds, sample, responseUrl, oursOk),
        );
        phases.plainBare.push(
          await loadPhase(plain.bare, plainPools.bare, seconds, sample, responseUrl, bareOk),
        );
      }
      progress(
        `  throughput round ${round + 1}: ours ${phases.ours.at(-1)?.rps.toFixed(0)}/s, bare ${phases.bare.at(-1)?.rps.toFixed(0)}/s, bare sending our card ${phases.card.at(-1)?.rps.toFixed(0)}/s, and with our listeners ${phases.mirror.at(-1)?.rps.toFixed(0)}/s`,
      );
    }
    for (const pool of [
      oursPool,
      barePool,
      cardPool,
      mirrorPool,
      ...Object.values(plainPools ?? {}),
    ]) {
      await pool.close();
    }
    for (const app of [oursApp, bareApp, cardApp, mirrorApp, ...Object.values(plain ?? {})]) {
      await app.stop();
    }
    const sum = (list: Phase[], pick: (phase: Phase) => number) =>
      list.reduce((total, phase) => total + pick(phase), 0);
    const oursRps = median(phases.ours.map((p) => p.rps));
    const bareRps = median(phases.bare.map((p) => p.rps));
    const oursCpu = median(phases.ours.map((p) => p.cpuMsPerRequest));
    const bareCpu = median(phases.bare.map((p) => p.cpuMsPerRequest));
    // Each round's pair ran back to back, under much the same load: the median of the pairs'
    // ratios is steadier than the ratio of medians taken at different moments.
    const pairRatio = (pick: (phase: Phase) => number, against = phases.bare, mine = phases.ours) =>
      median(mine.map((ours, i) => pick(ours) / pick(against[i] ?? ours)));

    const burst = await burstRun(ours, slack, sandbox, slackEnv, progress);
    const peak = await peakRun(ours, quick, slack, stub, sandbox, slackEnv, progress);

    const oursStart = median(starts.ours);
    const bareStart = median(starts.bare);
    return {
      throughput: {
        ours: oursRps,
        bare: bareRps,
        ratio: pairRatio((p) => p.rps),
        oursWrong: sum(phases.ours, (p) => p.wrong),
        bareWrong: sum(phases.bare, (p) => p.wrong),
        loaderMs: {
          ours: median(phases.ours.map((p) => p.loaderMsPerRequest)),
          bare: median(phases.bare.map((p) => p.loaderMsPerRequest)),
        },
      },
      cpuPerRequest: {
        oursMs: oursCpu,
        bareMs: bareCpu,
        ratio: pairRatio((p) => p.cpuMsPerRequest),
      },
      defaultHeap: plain
        ? {
            oursMs: median(phases.plainOurs.map((p) => p.cpuMsPerRequest)),
            bareMs: median(phases.plainBare.map((p) => p.cpuMsPerRequest)),
            cpuRatio: pairRatio((p) => p.cpuMsPerRequest, phases.plainBare, phases.plainOurs),
            throughputRatio: pairRatio((p) => p.rps, phases.plainBare, phases.plainOurs),
          }
        : undefined,
      cardFloor: {
        rps: median(phases.card.map((p) => p.rps)),
        cpuMs: median(phases.card.map((p) => p.cpuMsPerRequest)),
        throughputRatio: pairRatio((p) => p.rps, phases.card),
        cpuRatio: pairRatio((p) => p.cpuMsPerRequest, phases.card),
      },
      boltFloor: {
        rps: median(phases.mirror.map((p) => p.rps)),
        cpuMs: median(phases.mirror.map((p) => p.cpuMsPerRequest)),
        throughputRatio: pairRatio((p) => p.rps, phases.mirror),
        cpuRatio: pairRatio((p) => p.cpuMsPerRequest, phases.mirror),
        vsConstant: pairRatio((p) => p.cpuMsPerRequest, phases.bare, phases.mirror),
        listeners: MIRRORED_LISTENERS,
      },
      idleRssMiB: { ours: median(idle.ours), bare: median(idle.bare), processes: idle.processes },
      coldStartMs: { ours: oursStart, bare: bareStart, ratio: oursStart / bareStart },
      peak,
      burst,
    };
  } finally {
    await stub.close();
    await sandbox.close();
    await slack.close();
  }
}

/** 60 distinct uncached /stock at once, the ERP answering in 2 s, within the minute's budget. */
export async function burstRun(
  ours: AppCommand,
  slack: Awaited<ReturnType<typeof startSlackStub>>,
  sandbox: RunningSandbox,
  slackEnv: Record<string, string>,
  progress: (line: string) => void,
): Promise<AppFigures['burst']> {
  const commands = 60;
  const erpLatencyMs = 2_000;
  const app = await startApp(ours, { ...slackEnv, ...erpEnv(sandbox.url, sandbox) });
  sandbox.resetLimits();
  sandbox.resetStats();
  sandbox.setFaults({ latencyMs: erpLatencyMs, jitterMs: 0 });
  const pool = appPool(app.port, commands);
  const codes = sandbox.data.items.slice(1, commands + 1).map((item) => item.record.code);
  const began = performance.now();
  const acks = await Promise.all(
    codes.map(async (code, i) => {
      try {
        return await post(
          pool,
          signedStock(code, slack.responseUrl(`burst-${i}`), `U0BURST${i % 20}`),
        );
      } catch {
        return undefined;
      }
    }),
  );
  // Wait for every answer: a card, or a busy or error answer, or give up after 30 s.
  const settled = (i: number) => {
    const ack = acks[i];
    if (ack && isCard(ack.body)) return true;
    return (slack.delivered.get(`burst-${i}`) ?? []).some(
      (d) => d.card || !/looking up/i.test(d.body),
    );
  };
  while (performance.now() - began < 30_000 && !codes.every((_, i) => settled(i))) {
    await sleep(50);
  }
  let lastCardMs = 0;
  const figures = {
    commands,
    erpLatencyMs,
    lastCardMs: 0,
    ackP99Ms: percentile(
      acks.map((ack) => ack?.ms ?? Number.POSITIVE_INFINITY),
      99,
    ),
    cards: 0,
    busy: 0,
    errors: 0,
    lost: 0,
    rateLimited: sandbox.stats().rateLimited,
    upstream: sandbox.stats().requests.getItem ?? 0,
    blockKitViolations: 0,
    firstOther: undefined as string | undefined,
  };
  codes.forEach((_, i) => {
    const ack = acks[i];
    const bodies = [
      ...(ack ? [{ at: began + ack.ms, body: ack.body, card: isCard(ack.body) }] : []),
      ...(slack.delivered.get(`burst-${i}`) ?? []),
    ];
    for (const { body } of bodies) figures.blockKitViolations += blockKitViolations(body);
    const card = bodies.find((d) => d.card);
    if (!card) figures.firstOther ??= bodies.map((d) => textOf(d.body)).join(' / ');
    if (card) {
      figures.cards += 1;
      lastCardMs = Math.max(lastCardMs, card.at - began);
    } else if (bodies.some((d) => /busy|queue|wait/i.test(d.body))) figures.busy += 1;
    else if (bodies.some((d) => !/looking up/i.test(d.body))) figures.errors += 1;
    else figures.lost += 1;
  });
  figures.lastCardMs = lastCardMs;
  progress(
    `  60 uncached at once: last card ${lastCardMs.toFixed(0)} ms, ${figures.cards} cards, ${figures.upstream} ERP calls`,
  );
  sandbox.setFaults({ latencyMs: 0, jitterMs: 0 });
  await pool.close();
  await app.stop();
  return figures;
}

/** Many lookups over many codes: the RSS while the caches fill, and after. */
export async function peakRun(
  ours: AppCommand,
  quick: boolean,
  slack: Awaited<ReturnType<typeof startSlackStub>>,
  stub: Awaited<ReturnType<typeof startErpStub>>,
  sandbox: RunningSandbox,
  slackEnv: Record<string, string>,
  progress: (line: string) => void,
): Promise<AppFigures['peak']> {
  const lookups = quick ? 4_000 : 100_000;
  const codeCount = quick ? 1_000 : 20_000;
  const app = await startApp(ours, {
    ...slackEnv,
    ...erpEnv(stub.url, sandbox),
    // A budget that binds neither as a limit nor as one requester's fair share (this run's
    // one user makes about 18,000 calls a minute): this run is about the caches' memory. At
    // 20,000 a minute the fair share (5/6 of it) queued about 700 lookups a minute, released
    // together when the window turned: RSS rose about 12 MiB each minute, from the queue.
    // The ledger keeps one entry per call of the last minute (src/lookup/ledger.ts).
    ERP_GET_LIMIT_PER_MINUTE: '100000',
  });
  const callsBefore = stub.calls;
  const random = seeded(7);
  const codes = Array.from({ length: codeCount }, (_, i) => `BENCH-${String(i).padStart(6, '0')}`);
  const draw = Array.from(
    { length: lookups },
    () => codes[Math.floor(random() * codeCount)] ?? 'BENCH-0',
  );
  let peak = 0;
  const quarters: number[] = [];
  let done = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, app.sample().rssBytes);
  }, 200);
  const pool = appPool(app.port, 16);
  let cards = 0;
  const deferred: number[] = [];
  const acks: number[] = [];
  const result = await closedLoop(
    pool,
    16,
    3_600,
    (i) => signedStock(draw[i] ?? 'BENCH-0', slack.responseUrl(`peak-${i}`)),
    (reply, i) => {
      done += 1;
      acks.push(reply.ms);
      if (done % (lookups / 4) === 0) quarters.push(app.sample().rssBytes / MiB);
      // Slower than the acknowledgement: the card follows on the response_url.
      if (isCard(reply.body)) cards += 1;
      else deferred.push(i);
      return reply.status === 200;
    },
    lookups,
  );
  const settledBy = performance.now() + 10_000;
  const cardLater = (i: number) => (slack.delivered.get(`peak-${i}`) ?? []).some((d) => d.card);
  while (performance.now() < settledBy && !deferred.every(cardLater)) await sleep(100);
  const late = deferred.filter(cardLater).length;
  cards += late;
  const other = deferred.length - late;
  for (let i = 0; i < lookups; i += 1) slack.delivered.delete(`peak-${i}`);
  clearInterval(sampler);
  peak = Math.max(peak, app.sample().rssBytes);
  await pool.close();
  await app.stop();
  progress(
    `  ${lookups} lookups over ${codeCount} codes: peak RSS ${(peak / MiB).toFixed(0)} MiB in ${result.seconds.toFixed(0)} s`,
  );
  return {
    lookups,
    codes: codeCount,
    peakMiB: peak / MiB,
    quartersMiB: quarters,
    cards,
    cardsLater: late,
    other,
    failed: result.failed,
    upstream: stub.calls - callsBefore,
    ackP99Ms: percentile(acks, 99),
    seconds: result.seconds,
  };
}
