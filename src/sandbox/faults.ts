/**
 * Fault injection: added latency, 500s, requests that never get an answer, malformed bodies
 * and schema drift. Every request draws the same number of values from the PRNG whatever the
 * rates are, so a seeded sandbox makes the same decisions for the same request sequence.
 *
 * Faulty answers carry an `X-Sandbox-Fault` header (`error`, `malformed:truncate`,
 * `malformed:html`, `drift:<path>:<kind>`) so tests can tell an injected fault from a bug.
 */
import type { Random } from './prng.js';

export interface SandboxFaults {
  latencyMs: number;
  jitterMs: number;
  /** 0..1 share answered 500. */
  errorRate: number;
  /** 0..1 share never answered (until the sandbox closes). */
  hangRate: number;
  /** 0..1 share answered 200 with a non-JSON or truncated body. */
  malformedRate: number;
  /** 0..1 share answered 200 with a field missing or of the wrong type. */
  driftRate: number;
}

export const NO_FAULTS: SandboxFaults = {
  latencyMs: 0,
  jitterMs: 0,
  errorRate: 0,
  hangRate: 0,
  malformedRate: 0,
  driftRate: 0,
};

type MalformedKind = 'truncate' | 'html';

export interface FaultDecision {
  delayMs: number;
  hang: boolean;
  error: boolean;
  malformed: MalformedKind | undefined;
  drift: boolean;
  /** A further draw in [0, 1) choosing which drift or malformation. */
  variant: number;
}

export function rollFaults(random: Random, faults: SandboxFaults): FaultDecision {
  const [jitter, hang, error, malformed, drift, variant] = Array.from({ length: 6 }, () =>
    random.next(),
  ) as [number, number, number, number, number, number];
  return {
    delayMs: Math.max(0, faults.latencyMs + Math.round(jitter * faults.jitterMs)),
    hang: hang < faults.hangRate,
    error: error < faults.errorRate,
    malformed: malformed < faults.malformedRate ? (variant < 0.5 ? 'truncate' : 'html') : undefined,
    drift: drift < faults.driftRate,
    variant,
  };
}

export function malformBody(body: string, kind: MalformedKind): string {
  if (kind === 'html') {
    // What a misconfigured proxy in front of the ERP answers, still labelled as JSON.
    return '<html><head><title>502 Proxy Error</title></head><body><h1>Proxy Error</h1></body></html>';
  }
  return body.slice(0, Math.max(1, Math.floor(body.length / 2)));
}

type DriftKind = 'missing' | 'string' | 'number' | 'null';
type DriftTarget = readonly [path: string, kind: DriftKind];

/** Fields every client must read, so a drift in them is always noticed. */
const DRIFT_TARGETS: Record<string, readonly DriftTarget[]> = {
  getItem: [
    ['soh', 'string'],
    ['available', 'missing'],
    ['has_bom', 'string'],
    ['branches', 'null'],
    ['code', 'number'],
    ['cost', 'string'],
  ],
  getContact: [
    ['company', 'missing'],
    ['addressbook', 'null'],
    ['climit', 'string'],
    ['clientid', 'string'],
  ],
  searchItems: [
    ['items.0.available', 'string'],
    ['items.0.code', 'missing'],
    ['items.0.has_kit', 'number'],
    ['count', 'string'],
  ],
  searchContact: [
    ['contacts.0.addressbook_count', 'string'],
    ['contacts.0.company', 'missing'],
    ['count', 'string'],
  ],
};

/** Mutates a copy of `body`; returns it with the path changed, or undefined if none applies. */
export function applyDrift(
  endpoint: string,
  body: unknown,
  variant: number,
): { body: unknown; path: string; kind: DriftKind } | undefined {
  const targets = (DRIFT_TARGETS[endpoint] ?? []).filter(
    ([path]) => resolveParent(body, path) !== undefined,
  );
  const target = targets[Math.floor(variant * targets.length)];
  if (!target) return undefined;
  const [path, kind] = target;
  const copy: unknown = structuredClone(body);
  const parent = resolveParent(copy, path);
  if (!parent) return undefined;
  const [holder, key] = parent;
  const value = holder[key];
  if (kind === 'missing') delete holder[key];
  else if (kind === 'string') holder[key] = String(value);
  else if (kind === 'number') holder[key] = typeof value === 'boolean' ? Number(value) : 12_345;
  else holder[key] = null;
  return { body: copy, path, kind };
}

function resolveParent(body: unknown, path: string): [Record<string, unknown>, string] | undefined {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let node: unknown = body;
  for (const key of keys) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  if (typeof node !== 'object' || node === null || !(last in node)) return undefined;
  return [node as Record<string, unknown>, last];
}
