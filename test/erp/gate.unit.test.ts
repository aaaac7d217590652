/**
 * The bounded queue in front of the ERP pool (a cockatiel bulkhead run through `runGated`):
 * at most `slots` calls in flight, at most `maxQueued` waiting, the rest refused at once as
 * `queue_full`; a caller that gives up is answered at once and its call never goes out, and
 * nobody behind it is left waiting with a slot free.
 */
import { bulkhead } from 'cockatiel';
import { describe, expect, it } from 'vitest';
import { classifyTransportError, QueueFullError, runGated } from '../../src/erp/http.js';

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Lets queued hand-offs (promise callbacks, never timers) run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('runGated over a bulkhead', () => {
  it('runs at most `slots` tasks at once and starts waiters in arrival order as slots free', async () => {
    const gate = bulkhead(2, 10);
    const releases = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const runs = releases.map((release, i) =>
      runGated(gate, async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await release.promise;
        running -= 1;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    releases[1]?.resolve();
    await runs[1];
    await settle();
    expect(started).toEqual([0, 1, 2]);
    for (const release of releases) release.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('refuses a call at once when the queue is full, as reason queue_full', async () => {
    const gate = bulkhead(1, 1);
    const hold = deferred();
    const first = runGated(gate, () => hold.promise);
    const second = runGated(gate, async () => 'second');
    const third = runGated(gate, async () => 'third');
    await expect(third).rejects.toBeInstanceOf(QueueFullError);
    expect(classifyTransportError(await third.catch((error: unknown) => error))).toBe('queue_full');
    hold.resolve();
    await first;
    expect(await second).toBe('second');
    // The queue drained: a new call runs.
    expect(await runGated(gate, async () => 'later')).toBe('later');
  });

  it('answers a waiter that gives up at once with its reason, and never runs its task', async () => {
    const gate = bulkhead(1, 5);
    const hold = deferred();
    const first = runGated(gate, () => hold.promise);
    const controller = new AbortController();
    let ran = false;
    const leaving = runGated(
      gate,
      async () => {
        ran = true;
      },
      controller.signal,
    );
    controller.abort(new Error('user left'));
    // Answered while the slot is still held: the caller does not wait for its turn.
    await expect(leaving).rejects.toThrow('user left');
    hold.resolve();
    await first;
    await settle();
    expect(ran).toBe(false);
  });

  it('starts the waiters behind one that gave up as soon as a slot frees', async () => {
    const gate = bulkhead(1, 5);
    const hold = deferred();
    const first = runGated(gate, () => hold.promise);
    const controllers = [new AbortController(), new AbortController()];
    const leaving = controllers.map((controller) =>
      runGated(gate, async () => 'should not run', controller.signal).catch(
        (error: unknown) => error,
      ),
    );
    const staying = runGated(gate, async () => 'staying');
    for (const controller of controllers) controller.abort(new Error('gone'));
    hold.resolve();
    await first;
    // Nothing else finishes a call: the freed slot alone must reach the live waiter.
    expect(await staying).toBe('staying');
    for (const outcome of await Promise.all(leaving)) expect(outcome).toEqual(new Error('gone'));
  });

  it('refuses a caller whose signal has already aborted without taking a place', async () => {
    const gate = bulkhead(1, 0);
    let ran = false;
    await expect(
      runGated(
        gate,
        async () => {
          ran = true;
        },
        AbortSignal.abort(new Error('too late')),
      ),
    ).rejects.toThrow('too late');
    expect(ran).toBe(false);
    expect(await runGated(gate, async () => 'free')).toBe('free');
  });

  it('frees the slot when a task fails', async () => {
    const gate = bulkhead(1, 0);
    await expect(runGated(gate, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await runGated(gate, async () => 'after')).toBe('after');
  });

  it('answers a running call at once when its caller gives up, and frees the slot once it ends', async () => {
    const gate = bulkhead(1, 1);
    const hold = deferred();
    const controller = new AbortController();
    const running = runGated(gate, () => hold.promise, controller.signal);
    await settle();
    controller.abort(new Error('deadline'));
    await expect(running).rejects.toThrow('deadline');
    hold.resolve();
    await settle();
    expect(await runGated(gate, async () => 'next')).toBe('next');
  });
});
