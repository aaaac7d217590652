/**
 * The readiness checks with their default intervals on fake timers: how fast an ERP refusal
 * and its end are seen when nobody calls, and how few probe calls the budget pays for it.
 * (test/ops/readyz.test.ts drives the same checks through the real HTTP server.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionCheckError } from '../../src/ops/connectionCheck.js';
import { type BreakerState, type ErpSignal, Readiness } from '../../src/ops/readiness.js';
import { collectingLogger } from '../helpers/logSink.js';

interface FakeErp {
  refusing: boolean;
  credentials: 'ok' | 'refused';
  breaker: BreakerState;
  probes: number;
  connects: number;
}

function readinessOver(erp: FakeErp, budgetFree = () => true, hangingProbe = false) {
  const { logger } = collectingLogger('info', 'readiness-test');
  const observe = (signal: ErpSignal) => readiness.observe(signal);
  const readiness: Readiness = new Readiness({
    breakerState: () => erp.breaker,
    probeErp: async () => {
      erp.probes += 1;
      if (hangingProbe) return new Promise<void>(() => undefined);
      if (erp.refusing) observe({ kind: 'unreachable', reason: 'refused' });
      else if (erp.credentials === 'refused') {
        observe({ kind: 'credentials_refused', code: 'erp_auth' });
      } else observe({ kind: 'answered' });
    },
    budgetFree,
    connectErp: async () => {
      erp.connects += 1;
      if (erp.refusing) throw new ConnectionCheckError('refused');
    },
    socketMode: false,
    logger,
  });
  return readiness;
}

/** Advances the fake clock second by second; resolves with the seconds it took `ok` to hold. */
async function secondsUntil(ok: () => boolean, limitSeconds: number): Promise<number> {
  for (let seconds = 0; seconds <= limitSeconds; seconds += 1) {
    if (ok()) return seconds;
    await vi.advanceTimersByTimeAsync(1000);
  }
  throw new Error(`not within ${limitSeconds} s`);
}

describe('readiness on default intervals', () => {
  let erp: FakeErp;

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z') });
    erp = { refusing: false, credentials: 'ok', breaker: 'closed', probes: 0, connects: 0 };
  });
  afterEach(() => vi.useRealTimers());

  it('is ready after the first round: connection and one probe call', async () => {
    const readiness = readinessOver(erp);
    expect(readiness.report().status).toBe('not ready');
    await readiness.check();
    expect(readiness.report()).toMatchObject({ status: 'ready', failing: [] });
    expect(erp.probes).toBe(1);
    readiness.stop();
  });

  it('turns non-ready within 30 s of an idle ERP refusing connections, and back within 30 s', async () => {
    const readiness = readinessOver(erp);
    readiness.start();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(readiness.report().status).toBe('ready');

    erp.refusing = true;
    const down = await secondsUntil(() => readiness.report().status === 'not ready', 30);
    expect(down).toBeLessThanOrEqual(30);
    expect(readiness.report()).toMatchObject({
      failing: ['erp'],
      checks: { erp: { ok: false, detail: 'refused' } },
    });

    erp.refusing = false;
    const up = await secondsUntil(() => readiness.report().status === 'ready', 30);
    expect(up).toBeLessThanOrEqual(30);
    readiness.stop();
  });

  it('keeps checking connections while a probe call hangs', async () => {
    const readiness = readinessOver(erp, () => true, true);
    readiness.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(readiness.report().checks.erp).toMatchObject({ ok: true });
    erp.refusing = true;
    const down = await secondsUntil(() => readiness.report().checks.erp?.ok === false, 30);
    expect(down).toBeLessThanOrEqual(30);
    expect(readiness.report().checks.erp?.detail).toBe('refused');
    // The hanging call is never doubled.
    expect(erp.probes).toBe(1);
    readiness.stop();
  });

  it('spends at most one probe call a minute while idle, and none while calls are answered', async () => {
    const readiness = readinessOver(erp);
    readiness.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    // One at start, then one a minute.
    expect(erp.probes).toBeGreaterThanOrEqual(10);
    expect(erp.probes).toBeLessThanOrEqual(11);

    const before = erp.probes;
    for (let second = 0; second < 600; second += 5) {
      readiness.observe({ kind: 'answered' });
      await vi.advanceTimersByTimeAsync(5000);
    }
    expect(erp.probes).toBe(before);
    readiness.stop();
  });

  it('sends no probe while the budget has no free slot', async () => {
    const readiness = readinessOver(erp, () => false);
    readiness.start();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(erp.probes).toBe(0);
    expect(readiness.report()).toMatchObject({
      failing: ['credentials'],
      checks: { erp: { ok: true }, credentials: { ok: false, detail: 'not checked yet' } },
    });
    readiness.stop();
  });

  it('reports refused credentials from a 401 and clears them on the next accepted call', async () => {
    erp.credentials = 'refused';
    const readiness = readinessOver(erp);
    await readiness.check();
    expect(readiness.report()).toMatchObject({
      status: 'not ready',
      failing: ['credentials'],
      checks: { erp: { ok: true }, credentials: { ok: false, detail: 'refused (erp_auth)' } },
    });
    readiness.observe({ kind: 'answered' });
    expect(readiness.report().status).toBe('ready');
    readiness.stop();
  });

  it('is not ready while the breaker is open, whatever the last call said', async () => {
    const readiness = readinessOver(erp);
    await readiness.check();
    erp.breaker = 'open';
    expect(readiness.report()).toMatchObject({
      failing: ['erp'],
      checks: { erp: { ok: false, detail: 'circuit open' } },
    });
    erp.breaker = 'half-open';
    expect(readiness.report().status).toBe('ready');
    readiness.stop();
  });

  it('keeps a timeout until a real answer: a connection alone does not clear it', async () => {
    const readiness = readinessOver(erp);
    await readiness.check();
    readiness.observe({ kind: 'unreachable', reason: 'timeout' });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(readiness.report().checks.erp).toMatchObject({ ok: false, detail: 'timeout' });
    // The probe call, once a minute, brings the answer that clears it.
    const up = await secondsUntil(() => readiness.report().status === 'ready', 60);
    expect(up).toBeLessThanOrEqual(60);
    readiness.stop();
  });
});

describe('dependencies registered with readiness', () => {
  const fresh = () => {
    const sink = collectingLogger('info', 'readiness-deps');
    const readiness: Readiness = new Readiness({
      breakerState: () => 'closed',
      probeErp: async () => readiness.observe({ kind: 'answered' }),
      budgetFree: () => true,
      socketMode: false,
      logger: sink.logger,
    });
    readiness.observe({ kind: 'answered' });
    return { readiness, lines: sink.lines };
  };

  it('a degradable one away keeps the replica ready and names it as degraded', () => {
    const { readiness } = fresh();
    const database = readiness.degradable('database');
    expect(readiness.report()).toMatchObject({
      status: 'ready',
      degraded: ['database'],
      checks: { database: { ok: false, detail: 'connecting', degraded: true } },
    });
    database.up();
    expect(readiness.report()).toMatchObject({ status: 'ready', degraded: [], failing: [] });
    database.down('connection refused');
    expect(readiness.report()).toMatchObject({
      status: 'ready',
      failing: [],
      degraded: ['database'],
      checks: { database: { ok: false, detail: 'connection refused' } },
    });
    readiness.stop();
  });

  it('a required one makes it unready until its first up, and while down', () => {
    const { readiness } = fresh();
    const slack = readiness.required('slack');
    expect(readiness.report()).toMatchObject({
      status: 'not ready',
      failing: ['slack'],
      checks: { slack: { ok: false, detail: 'not reached yet' } },
    });
    slack.up();
    expect(readiness.report()).toMatchObject({ status: 'ready', failing: [] });
    slack.down('unreachable');
    expect(readiness.report()).toMatchObject({ status: 'not ready', failing: ['slack'] });
    readiness.stop();
  });

  it('logs one line per change of state, none for the first up nor for repeats', () => {
    const { readiness, lines } = fresh();
    const database = readiness.degradable('database');
    database.up();
    database.up();
    database.down('refused');
    database.down('refused');
    database.up();
    const about = lines.filter((line) => line.includes('"dependency":"database"'));
    expect(about).toHaveLength(2);
    expect(about[0]).toContain('database is away');
    expect(about[1]).toContain('database is back');
    readiness.stop();
  });
});
