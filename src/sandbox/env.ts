/**
 * Sandbox options from environment variables, for `npm run sandbox` (and anyone else who
 * starts a standalone sandbox): SANDBOX_PORT, SANDBOX_SEED, SANDBOX_LATENCY_MS,
 * SANDBOX_JITTER_MS, SANDBOX_ERROR_RATE, SANDBOX_HANG_RATE, SANDBOX_MALFORMED_RATE,
 * SANDBOX_DRIFT_RATE, SANDBOX_COUNT=total|page, SANDBOX_RETRY_AFTER=1,
 * SANDBOX_REQUIRE_QUERY=0|1. Unset or blank variables keep the defaults; a bad value throws
 * an error naming the variable.
 */
import { z } from 'zod';
import type { SandboxOptions } from './options.js';

const blank = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const int = (min: number, max: number) =>
  z.preprocess(blank, z.coerce.number().int().min(min).max(max).optional());
const rate = z.preprocess(blank, z.coerce.number().min(0).max(1).optional());
const flag = z
  .preprocess(blank, z.enum(['0', '1', 'true', 'false']).optional())
  .transform((value) => (value === undefined ? undefined : value === '1' || value === 'true'));

const envSchema = z.object({
  SANDBOX_PORT: int(0, 65_535),
  SANDBOX_SEED: int(0, 2 ** 32 - 1),
  SANDBOX_LATENCY_MS: int(0, 600_000),
  SANDBOX_JITTER_MS: int(0, 600_000),
  SANDBOX_ERROR_RATE: rate,
  SANDBOX_HANG_RATE: rate,
  SANDBOX_MALFORMED_RATE: rate,
  SANDBOX_DRIFT_RATE: rate,
  SANDBOX_COUNT: z.preprocess(blank, z.enum(['total', 'page']).optional()),
  SANDBOX_RETRY_AFTER: flag,
  SANDBOX_REQUIRE_QUERY: flag,
});

export function sandboxOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxOptions {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RangeError(`Invalid ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  return {
    port: e.SANDBOX_PORT,
    seed: e.SANDBOX_SEED,
    faults: {
      latencyMs: e.SANDBOX_LATENCY_MS,
      jitterMs: e.SANDBOX_JITTER_MS,
      errorRate: e.SANDBOX_ERROR_RATE,
      hangRate: e.SANDBOX_HANG_RATE,
      malformedRate: e.SANDBOX_MALFORMED_RATE,
      driftRate: e.SANDBOX_DRIFT_RATE,
    },
    behaviour: {
      countMeaning: e.SANDBOX_COUNT,
      retryAfter: e.SANDBOX_RETRY_AFTER,
      requireQuery: e.SANDBOX_REQUIRE_QUERY,
    },
  };
}
