/**
 * Workflow runs in the fair queue: a run whose `requested_by` names a person is that person's,
 * so one person's burst of runs cannot keep another person's run (or command) waiting past
 * their turn; runs that name nobody share one requester for the step. The step's own code
 * (stepRequester, runLookupStock) over the real lookup service and budget, on fake clocks, in
 * the default configuration (60 getItem a minute).
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

/** 120 runs for `requestedBy` (none: naming nobody), queued for two seconds already. */
async function burstFor(requestedBy: string | undefined) {
  const { erp, service } = makeService();
  erp.latencyMs = 40;
  const burst = Array.from({ length: 120 }, (_, i) =>
    run(service, 1000 + i, requestedBy).catch(() => undefined),
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

  it('a person’s own command is not queued behind runs that name them', async () => {
    const { erp, service, drain } = await burstFor('U0ALICE01');
    const askedAt = Date.now();
    const own = service.getItem({ code: 'CODE-8' }, { requester: 'U0ALICE01' });
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(own).resolves.toMatchObject({ data: { id: 8 } });
    expect(sentAt(erp.calls, 8) - askedAt).toBeLessThanOrEqual(5_000);
    await drain();
  });
});
