import { expect, vi } from 'vitest';

/** Waits until one of `lines` (log lines) contains every one of `parts`. */
export function eventuallyLogged(lines: readonly string[], ...parts: string[]): Promise<void> {
  return eventually(() => {
    expect(lines.some((line) => parts.every((part) => line.includes(part)))).toBe(true);
  });
}

/**
 * Waits for an outcome, not for a duration: re-runs `check` (which throws, an `expect`
 * usually, until the outcome is there) every few milliseconds and returns its value; fails
 * with the check's last error after `timeoutMs`, which is generous on purpose (a loaded CI
 * machine is slow, and a passing test never waits for it).
 */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 10 });
}
