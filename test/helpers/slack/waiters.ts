/**
 * "Wait until this is true" for the fake's recorded state, without polling: every change calls
 * `notify()`, which re-checks the pending conditions.
 */

interface Waiter {
  check: () => boolean;
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class Waiters {
  private readonly pending = new Set<Waiter>();

  /**
   * Resolves as soon as `check()` is true (possibly at once); rejects after `timeoutMs` with
   * `describe()` in the message so a failing test says what it saw.
   */
  until(check: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        check,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.pending.delete(waiter);
          reject(new Error(`fake Slack: timed out after ${timeoutMs} ms: ${describe()}`));
        }, timeoutMs),
      };
      this.pending.add(waiter);
    });
  }

  /** Re-checks every pending condition; call after each recorded change. */
  notify(): void {
    for (const waiter of this.pending) {
      if (!waiter.check()) continue;
      clearTimeout(waiter.timer);
      this.pending.delete(waiter);
      waiter.resolve();
    }
  }

  /** Fails every pending wait (the fake is closing) and clears their timers. */
  rejectAll(reason: string): void {
    for (const waiter of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(`fake Slack: ${reason}`));
    }
    this.pending.clear();
  }
}
