/**
 * Keeps the ERP credential out of everything an error carries.
 *
 * Our own messages never contain it, but the errors we keep as `cause` come from elsewhere:
 * `JSON.parse` quotes the start of the body in its message, and an ERP error page may echo the
 * request headers. Those strings are scrubbed in place (message and stack), so that `String`,
 * `JSON.stringify` and `util.inspect` of the whole cause chain are safe, while the original
 * error objects (their class, code and other fields) are kept for debugging.
 */
const REPLACEMENT = '[secret]';
/** Shorter values would match ordinary text; configuration requires real tokens anyway. */
const MIN_SECRET_LENGTH = 4;
const MAX_CHAIN_DEPTH = 8;

export class SecretScrubber {
  private readonly secrets: readonly string[];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    // Longest first, so that `Basic <base64>` goes before any shorter secret inside it.
    this.secrets = secrets
      .filter((secret): secret is string => !!secret && secret.length >= MIN_SECRET_LENGTH)
      .sort((a, b) => b.length - a.length);
  }

  scrub(text: string): string {
    let result = text;
    for (const secret of this.secrets) {
      if (result.includes(secret)) result = result.split(secret).join(REPLACEMENT);
    }
    return result;
  }

  /** Scrubs the error, its `cause` chain and any `errors` (AggregateError), in place. */
  scrubError<T>(error: T): T {
    this.scrubChain(error, new Set(), 0);
    return error;
  }

  private scrubChain(value: unknown, seen: Set<unknown>, depth: number): void {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    if (depth > MAX_CHAIN_DEPTH) return;
    seen.add(value);
    if (value instanceof Error) rewriteErrorText(value, (text) => this.scrub(text));
    const record = value as { cause?: unknown; errors?: unknown };
    this.scrubChain(record.cause, seen, depth + 1);
    if (Array.isArray(record.errors)) {
      for (const inner of record.errors) this.scrubChain(inner, seen, depth + 1);
    }
  }
}

/**
 * Rewrites an error's message and stack in place, keeping the error object itself (class,
 * code, other fields) for debugging.
 */
export function rewriteErrorText(error: Error, rewrite: (text: string) => string): void {
  for (const key of ['message', 'stack'] as const) {
    const text = error[key];
    if (typeof text !== 'string') continue;
    const clean = rewrite(text);
    if (clean === text) continue;
    try {
      // defineProperty also works where the property is an inherited or read-only accessor.
      Object.defineProperty(error, key, { value: clean, configurable: true, writable: true });
    } catch {
      // A frozen error cannot be changed; nothing we create is frozen, so this is theoretical.
    }
  }
}

/**
 * V8's JSON.parse messages quote the body around the error (`Unexpected token 'o',
 * "{"a": tok_live_9f"... is not valid JSON`): a fragment of a value, possibly personal data or
 * part of a secret too short to be recognised. The quotation is cut out.
 */
export function withoutQuotedSource(text: string): string {
  return text.replace(/, ".*"(\.\.\.)? is not valid JSON/g, ', "[body]" is not valid JSON');
}
