/**
 * One logger for the whole app (pino), shared with Bolt through `toBoltLogger`.
 *
 * Two safety nets keep secrets and personal data out of the log:
 * - `redact` removes known fields wherever they appear (tokens, Authorization headers,
 *   phone numbers, e-mail addresses, people's names);
 * - every string that reaches the log (messages and string arguments) is scrubbed of the
 *   secrets registered with `registerSecret`, whatever shape they are in.
 */
import { Writable } from 'node:stream';
import { type Logger as BoltLogger, type LogLevel as BoltLogLevel, LogLevel } from '@slack/bolt';
import pino, { type Logger } from 'pino';

export type AppLogger = Logger;

const REDACTED_FIELDS = [
  'authorization',
  'Authorization',
  'token',
  'accessToken',
  'botToken',
  'appToken',
  'signingSecret',
  'password',
  'telephone',
  'mobile',
  'email',
  'email2',
  'name',
  'salutation',
];

const REDACT_PATHS = [
  ...REDACTED_FIELDS,
  ...REDACTED_FIELDS.map((field) => `*.${field}`),
  ...REDACTED_FIELDS.map((field) => `*.*.${field}`),
  'headers.authorization',
  'req.headers.authorization',
];

const secrets = new Set<string>();

/** Every later log line has this value replaced by `[secret]`, wherever it appears. */
export function registerSecret(secret: string | undefined): void {
  if (secret && secret.length >= 6) {
    secrets.add(secret);
    // Basic auth carries the token base64-encoded together with the company code; callers
    // register that encoded form too.
  }
}

export function scrubSecrets(text: string): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret)) result = result.split(secret).join('[secret]');
  }
  return result;
}

/** The name and message of anything thrown, for a log line (`err`), without a cast. */
export function errorFields(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: typeof error, message: String(error) };
}

interface LoggerOptions {
  level?: string;
  /** Where lines go; standard output by default. Tests pass a sink to inspect every line. */
  destination?: NodeJS.WritableStream;
  name?: string;
}

export function createLogger(options: LoggerOptions = {}): AppLogger {
  const destination = options.destination ?? process.stdout;
  // The final scrub happens on the serialised line, so nothing escapes it (error stacks,
  // nested objects, Bolt's own messages).
  const scrubbing = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      destination.write(scrubSecrets(chunk.toString('utf8')));
      callback();
    },
  });
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // Not pino's `name`: a top-level `name` is redacted as a person's name would be.
      base: options.name ? { component: options.name } : undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    scrubbing,
  );
}

const toBolt: Record<string, BoltLogLevel> = {
  trace: LogLevel.DEBUG,
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
  fatal: LogLevel.ERROR,
  silent: LogLevel.ERROR,
};

const fromBolt: Record<BoltLogLevel, string> = {
  [LogLevel.DEBUG]: 'debug',
  [LogLevel.INFO]: 'info',
  [LogLevel.WARN]: 'warn',
  [LogLevel.ERROR]: 'error',
};

function joinMessage(parts: unknown[]): [Record<string, unknown>, string] {
  const errors = parts.filter((part): part is Error => part instanceof Error);
  const text = parts
    .filter((part) => !(part instanceof Error))
    .map((part) => (typeof part === 'string' ? part : safeStringify(part)))
    .join(' ');
  return [errors.length > 0 ? { err: errors[0] } : {}, text];
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Bolt's logger interface over our pino logger, so that Bolt's lines get the same scrubbing. */
export function toBoltLogger(logger: AppLogger): BoltLogger {
  let child = logger.child({ component: 'bolt' });
  // Bolt logs at debug on every acknowledgement: join its parts only for a line that is kept.
  const line =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...msgs: unknown[]): void => {
      if (child.isLevelEnabled(level)) child[level](...joinMessage(msgs));
    };
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    setLevel: (level) => {
      child.level = fromBolt[level];
    },
    getLevel: () => toBolt[child.level] ?? LogLevel.INFO,
    setName: (name) => {
      child = logger.child({ component: name });
    },
  };
}
