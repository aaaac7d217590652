/**
 * The bounded queue in front of the ERP pool: at most `slots` calls in flight, at most
 * `maxQueued` waiting, the rest refused at once; a waiter that gives up leaves the queue.
 */
import { describe, expect, it } from 'vitest';
import { classifyTransportError, QueueFullError, RequestGate } from '../../src/erp/http.js';

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('RequestGate', () => {
  it('runs at most `slots` tasks at once and starts waiters in order as slots free', async () => {
    const gate = new RequestGate(2, 10);
    const releases = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const runs = releases.map((release, i) =>
      gate.run(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await release.promise;
        running -= 1;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    releases[1]?.resolve();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const release of releases) release.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('refuses a call at once when the queue is full, as reason queue_full', async () => {
    const gate = new RequestGate(1, 1);
    const hold = deferred();
    const first = gate.run(() => hold.promise);
    const second = gate.run(async () => 'second');
    const third = gate.run(async () => 'third');
    await expect(third).rejects.toBeInstanceOf(QueueFullError);
    expect(classifyTransportError(await third.catch((error: unknown) => error))).toBe('queue_full');
    hold.resolve();
    await first;
    expect(await second).toBe('second');
    // The queue drained: a new call runs.
    expect(await gate.run(async () => 'later')).toBe('later');
  });

  it('lets a waiter that gives up leave the queue, freeing its place', async () => {
    const gate = new RequestGate(1, 1);
    const hold = deferred();
    const first = gate.run(() => hold.promise);
    const controller = new AbortController();
    let ran = false;
    const leaving = gate.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort(new Error('user left'));
    await expect(leaving).rejects.toThrow('user left');
    // Its place is free again.
    const next = gate.run(async () => 'next');
    hold.resolve();
    await first;
    expect(await next).toBe('next');
    expect(ran).toBe(false);
  });

  it('frees the slot when a task fails', async () => {
    const gate = new RequestGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'after')).toBe('after');
  });
});
