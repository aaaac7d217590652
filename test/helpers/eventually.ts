import { vi } from 'vitest';

/**
 * Waits for an outcome, not for a duration: re-runs `check` (which throws, an `expect`
 * usually, until the outcome is there) every few milliseconds and returns its value; fails
 * with the check's last error after `timeoutMs`, which is generous on purpose (a loaded CI
 * machine is slow, and a passing test never waits for it).
 */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 10 });
}
