/**
 * The sandbox's options, their defaults and their validation: a rate outside 0..1 or a
 * negative latency fails at start, not halfway through a benchmark.
 */
import { z } from 'zod';
import type { AppLogger } from '../log/logger.js';
import { NO_FAULTS, type SandboxFaults } from './faults.js';
import type { CountMeaning } from './render.js';
import type { SandboxData } from './types.js';

export type { SandboxFaults } from './faults.js';

export interface SandboxCredentials {
  companyCode: string;
  accessToken: string;
  tenantId: string;
}

/** Requests per credential and endpoint in each window. */
export interface SandboxLimits {
  getItem: number;
  getContact: number;
  searchItems: number;
  searchContact: number;
  windowMs: number;
}

/** Behaviours the spec leaves open ("not shown") that clients must survive either way. */
export interface SandboxBehaviour {
  /** Is a search's `count` the total number of matches or the size of this page. Default `total`. */
  countMeaning: CountMeaning;
  /** Does a 429 carry `Retry-After` (whole seconds until the window turns). Default false. */
  retryAfter: boolean;
  /** Is `q` required (400 when missing or blank). Default true. */
  requireQuery: boolean;
}

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Seeds the data set (when `data` is not given) and the fault decisions. */
  seed?: number;
  /** Pre-generated data, to share one data set between several sandboxes. */
  data?: SandboxData;
  /** Default `DEFAULT_SANDBOX_CREDENTIALS`. */
  credentials?: SandboxCredentials;
  limits?: Partial<SandboxLimits>;
  behaviour?: Partial<SandboxBehaviour>;
  faults?: Partial<SandboxFaults>;
  logger?: AppLogger;
  /** The rate limiter's clock (tests turn the window without waiting). Default `Date.now`. */
  now?: () => number;
}

export const DEFAULT_SANDBOX_CREDENTIALS: Readonly<SandboxCredentials> = Object.freeze({
  companyCode: 'SANDBOX',
  accessToken: 'sandbox-access-token',
  tenantId: 'sandbox-tenant',
});

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  getItem: 60,
  getContact: 60,
  searchItems: 20,
  searchContact: 20,
  windowMs: 60_000,
});

export const DEFAULT_SANDBOX_BEHAVIOUR: Readonly<SandboxBehaviour> = Object.freeze({
  countMeaning: 'total',
  retryAfter: false,
  requireQuery: true,
});

const rate = z.number().min(0).max(1);
const millis = z.number().int().min(0);
const count = z.number().int().min(1);

const faultsSchema = z.object({
  latencyMs: millis,
  jitterMs: millis,
  errorRate: rate,
  hangRate: rate,
  malformedRate: rate,
  driftRate: rate,
});
const limitsSchema = z.object({
  getItem: count,
  getContact: count,
  searchItems: count,
  searchContact: count,
  windowMs: count,
});
const behaviourSchema = z.object({
  countMeaning: z.enum(['total', 'page']),
  retryAfter: z.boolean(),
  requireQuery: z.boolean(),
});
const credentialsSchema = z.object({
  companyCode: z
    .string()
    .min(1)
    .regex(/^[^:]*$/, 'a Basic auth user name cannot contain ":"'),
  accessToken: z.string().min(1),
  tenantId: z.string().min(1),
});

function validated<T>(what: string, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new RangeError(`Invalid sandbox ${what}: ${issue?.path.join('.')} ${issue?.message}`);
  }
  return result.data;
}

/** `{ latencyMs: undefined }` leaves the current value alone rather than unsetting it. */
function definedOnly<T extends object>(change: Partial<T>): Partial<T> {
  return Object.fromEntries(
    Object.entries(change).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

export function resolveFaults(
  current: SandboxFaults,
  change: Partial<SandboxFaults> = {},
): SandboxFaults {
  return validated('faults', faultsSchema, { ...current, ...definedOnly(change) });
}

export function resolveBehaviour(
  current: SandboxBehaviour,
  change: Partial<SandboxBehaviour> = {},
): SandboxBehaviour {
  return validated('behaviour', behaviourSchema, { ...current, ...definedOnly(change) });
}

export function resolveLimits(change: Partial<SandboxLimits> = {}): SandboxLimits {
  return validated('limits', limitsSchema, { ...DEFAULT_SANDBOX_LIMITS, ...definedOnly(change) });
}

export function resolveCredentials(credentials?: SandboxCredentials): SandboxCredentials {
  return validated('credentials', credentialsSchema, credentials ?? DEFAULT_SANDBOX_CREDENTIALS);
}

export { NO_FAULTS };
