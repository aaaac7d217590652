/**
 * Per-credential, per-endpoint rate limits in fixed windows that open with the first request
 * (the spec's "N requests per minute, per client"; how a client is identified is not shown,
 * the sandbox uses the company code). Takes a clock so tests can turn the window.
 */
interface LimitDecision {
  allowed: boolean;
  /** Until the window turns; meaningful when refused. */
  retryAfterMs: number;
}

export class WindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  consume(key: string, limit: number, windowMs: number): LimitDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    const retryAfterMs = window.start + windowMs - now;
    if (window.count >= limit) return { allowed: false, retryAfterMs };
    window.count += 1;
    return { allowed: true, retryAfterMs };
  }

  reset(): void {
    this.windows.clear();
  }
}
