/**
 * Workflow runs in the fair queue: every run of a step is one requester of the budget (all of
 * them together hold at most one requester's share, whatever `requested_by` names), and within
 * that share runs are ordered per person named, so one person's burst of runs cannot keep
 * another person's run (or command) waiting past their turn. The step's own code
 * (stepRequester, runLookupStock) over the real lookup service and budget, on fake clocks, in
 * the default configuration (60 getItem a minute, a requester's share 50).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runLookupStock, stepRequester } from '../../src/slack/listeners/functions/lookupStock.js';
import { makeService, silentLogger } from '../lookup/fakes.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const EVENT = { function: { id: 'Fn0001' } };
const NO_LISTS = { stock: { channels: [], users: [] }, contact: { channels: [], users: [] } };

/** One run of the step, as its listener starts it, for item CODE-<id>. */
function run(lookup: ReturnType<typeof makeService>['service'], id: number, requestedBy?: string) {
  const inputs = { item_code: `CODE-${id}`, requested_by: requestedBy };
  return runLookupStock(
    { lookup, logger: silentLogger, access: NO_LISTS },
    inputs,
    stepRequester(EVENT, inputs),
  );
}

const sentAt = (calls: readonly { args: unknown; at: number }[], id: number) =>
  calls.find((call) => JSON.stringify(call.args).includes(`"CODE-${id}"`))?.at ?? Number.NaN;

/** The default share of one requester: 60 a minute less a sixth kept for others. */
const SHARE = 50;

/**
 * 120 runs for `requestedBy` (none: naming nobody; a function: the person each run names),
 * queued for two seconds already.
 */
async function burstFor(requestedBy: string | undefined | ((i: number) => string)) {
  const { erp, service } = makeService();
  erp.latencyMs = 40;
  const burst = Array.from({ length: 120 }, (_, i) =>
    run(service, 1000 + i, typeof requestedBy === 'function' ? requestedBy(i) : requestedBy).catch(
      () => undefined,
    ),
  );
  await vi.advanceTimersByTimeAsync(2_000);
  return {
    erp,
    service,
    /** Lets the rest of the burst through (each in its turn), and waits for all of it. */
    drain: async (...others: Promise<unknown>[]) => {
      await vi.advanceTimersByTimeAsync(180_000);
      await Promise.all([...burst, ...others]);
    },
  };
}

/** `requester`'s own `/stock CODE-<id>` is sent to the ERP within five seconds. */
async function ownCommandGoesOut(
  { erp, service }: Pick<ReturnType<typeof makeService>, 'erp' | 'service'>,
  id: number,
  requester: string,
) {
  const askedAt = Date.now();
  const own = service.getItem({ code: `CODE-${id}` }, { requester });
  await vi.advanceTimersByTimeAsync(5_000);
  await expect(own).resolves.toMatchObject({ data: { id } });
  expect(sentAt(erp.calls, id) - askedAt).toBeLessThanOrEqual(5_000);
}

describe('a person’s workflow run behind another person’s burst of 120 runs', () => {
  it('is answered within a few seconds when the runs name their person', async () => {
    const { erp, service, drain } = await burstFor('U0ALICE01');
    const askedAt = Date.now();
    const bob = run(service, 7, 'U0BOB0001');
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(bob).resolves.toMatchObject({ ok: true });
    expect(sentAt(erp.calls, 7) - askedAt).toBeLessThanOrEqual(5_000);
    await drain();
  });

  it('waits behind the burst when no run names a person (one requester for the step)', async () => {
    const { erp, service, drain } = await burstFor(undefined);
    const askedAt = Date.now();
    const anonymous = run(service, 7).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5_000);
    // Still queued behind the step's own runs: why the step asks for `requested_by`.
    const sent = sentAt(erp.calls, 7);
    expect(Number.isNaN(sent) || sent - askedAt > 5_000).toBe(true);
    await drain(anonymous);
  });

  it('runs naming a different person each time get no more than the step’s share', async () => {
    const { erp, service, drain } = await burstFor((i) => `U0ROT${String(i).padStart(4, '0')}`);
    // The window has not turned: every run sent so far holds one of the step's slots.
    expect(erp.calls.length).toBeGreaterThan(0);
    expect(erp.calls.length).toBeLessThanOrEqual(SHARE);
    // What the step leaves is anyone's: a person's own command goes out at once.
    await ownCommandGoesOut({ erp, service }, 9, 'U0CAROL01');
    await drain();
  });

  it('a person’s own command is not queued behind runs that name them', async () => {
    const { erp, service, drain } = await burstFor('U0ALICE01');
    await ownCommandGoesOut({ erp, service }, 8, 'U0ALICE01');
    await drain();
  });
});
