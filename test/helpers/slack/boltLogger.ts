/**
 * A Bolt logger for tests: quiet, but it keeps every line so a test can assert that Bolt
 * logged no errors (Bolt logs listener failures instead of throwing them at the caller).
 */
import { type Logger, LogLevel } from '@slack/bolt';

/** One line Bolt (or its WebClient / Socket Mode client) logged. */
export interface LoggedLine {
  level: LogLevel;
  text: string;
}

/** A Bolt `Logger` that records instead of printing. */
export interface RecordingBoltLogger extends Logger {
  lines: LoggedLine[];
  /** Lines at `error` level, as text. */
  errors(): string[];
}

/** Creates a logger to pass as `new App({ logger })`. */
export function recordingBoltLogger(): RecordingBoltLogger {
  let level: LogLevel = LogLevel.INFO;
  const lines: LoggedLine[] = [];
  const log =
    (at: LogLevel) =>
    (...msgs: unknown[]) => {
      lines.push({ level: at, text: msgs.map(String).join(' ') });
    };
  return {
    lines,
    errors: () => lines.filter((l) => l.level === LogLevel.ERROR).map((l) => l.text),
    debug: log(LogLevel.DEBUG),
    info: log(LogLevel.INFO),
    warn: log(LogLevel.WARN),
    error: log(LogLevel.ERROR),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
