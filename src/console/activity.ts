/**
 * Knows whether the app is still busy: events being processed by Bolt, HTTP calls to the fake
 * Slack being answered, and when anything last happened. `--once` waits on it before exiting,
 * and the REPL waits on it (briefly) before showing the prompt again.
 */
interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class ActivityTracker {
  private inFlight = 0;
  private lastActivity: number;

  constructor(private readonly clock: Clock = systemClock) {
    this.lastActivity = clock.now();
  }

  /** Marks work as started; call the returned function exactly once when it ends. */
  begin(): () => void {
    this.inFlight += 1;
    this.touch();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      this.touch();
    };
  }

  touch(): void {
    this.lastActivity = this.clock.now();
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  quietFor(): number {
    return this.busy ? 0 : this.clock.now() - this.lastActivity;
  }

  /**
   * Resolves true once nothing is in flight and nothing has happened for `quietMs` and
   * `ready()` agrees (e.g. "at least one answer arrived"); false when `timeoutMs` passes first.
   */
  async waitUntilQuiet(options: {
    quietMs: number;
    timeoutMs: number;
    ready?: () => boolean;
    pollMs?: number;
  }): Promise<boolean> {
    const deadline = this.clock.now() + options.timeoutMs;
    const poll = options.pollMs ?? 25;
    while (this.clock.now() < deadline) {
      if (this.quietFor() >= options.quietMs && (options.ready?.() ?? true)) return true;
      await this.clock.sleep(poll);
    }
    return false;
  }
}
