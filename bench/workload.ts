/**
 * Benchmark building blocks: a seeded PRNG, a Zipf sampler, percentiles, and an ErpApi
 * decorator that counts what really goes upstream.
 */

import { RateLimitedError } from '../src/erp/errors.js';
import type { ContactSearchParams, ErpApi, ErpRef, ItemSearchParams } from '../src/erp/schemas.js';

/** mulberry32: small, fast and good enough to make a replay repeatable. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws ranks 0..n-1 with P(k) proportional to 1/(k+1)^s. */
export function zipf(n: number, s: number, random: () => number): () => number {
  const weights = Array.from({ length: n }, (_, k) => 1 / (k + 1) ** s);
  const total = weights.reduce((sum, w) => sum + w, 0);
  let running = 0;
  const cdf = weights.map((w) => {
    running += w / total;
    return running;
  });
  return () => {
    const u = random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] ?? 1) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** Counts calls (and the 429s among them) on their way to the real client. */
export class CountingErp implements ErpApi {
  readonly credentialKey: string;
  readonly sentAt: number[] = [];
  rateLimited = 0;

  constructor(private readonly inner: ErpApi) {
    this.credentialKey = inner.credentialKey;
  }

  get calls(): number {
    return this.sentAt.length;
  }

  getItem(ref: ErpRef) {
    return this.track(() => this.inner.getItem(ref));
  }

  getContact(ref: ErpRef) {
    return this.track(() => this.inner.getContact(ref));
  }

  searchItems(params: ItemSearchParams) {
    return this.track(() => this.inner.searchItems(params));
  }

  searchContact(params: ContactSearchParams) {
    return this.track(() => this.inner.searchContact(params));
  }

  private async track<T>(call: () => Promise<T>): Promise<T> {
    this.sentAt.push(performance.now());
    try {
      return await call();
    } catch (error) {
      if (error instanceof RateLimitedError) this.rateLimited += 1;
      throw error;
    }
  }
}

export interface Lookup {
  at: number;
  user: string;
  code: string;
}

/** `count` lookups by `users` users over `codes`, Zipf-distributed, spread over `spanMs`. */
export function replay(options: {
  seed: number;
  count: number;
  users: number;
  codes: readonly string[];
  s: number;
  spanMs: number;
}): Lookup[] {
  const random = seeded(options.seed);
  const rank = zipf(options.codes.length, options.s, random);
  return Array.from({ length: options.count }, () => ({
    at: random() * options.spanMs,
    user: `U${String(Math.floor(random() * options.users)).padStart(3, '0')}`,
    code: options.codes[rank()] ?? '',
  })).sort((a, b) => a.at - b.at);
}
