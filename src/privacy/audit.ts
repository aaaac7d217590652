/**
 * The reveal audit trail: one entry per press of "Reveal details", whatever the outcome.
 *
 * An entry says who, which contact, where and when, in ids only. It must never hold the
 * details that were revealed (names, telephone numbers, e-mail addresses): the audit log is
 * read by more people, and kept longer, than the ERP data it describes. So lines are built
 * field by field from a fixed list, never by spreading the caller's object.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { AppLogger } from '../log/logger.js';

export interface RevealAuditEntry {
  userId: string;
  /**
   * The presser's own team, not the installing workspace: a Slack Connect partner's press must
   * show their organisation. users.info's `team_id` once the policy asked it (`members`), else
   * the payload's `user.team_id`.
   */
  teamId: string | undefined;
  channelId: string | undefined;
  /** Undefined when the button's value could not be read (tampered, stale). */
  contactCode: string | undefined;
  outcome: 'revealed' | 'refused' | 'failed';
  /** A short machine word: a refusal reason (`guest`, `invalid_value`) or an error code. */
  reason?: string;
  /**
   * How many people's details were revealed (a count, never who): all of the contact's, or
   * those a people filter kept (`/contact ACME01 accounts`).
   */
  people?: number;
  at: Date;
}

export interface AuditLog {
  /** Never throws and never waits: the file write happens in the background. */
  record(entry: RevealAuditEntry): void;
  /** Flushes and closes the file, if any. Safe to call more than once. */
  close(): Promise<void>;
}

interface AuditLogOptions {
  logger: AppLogger;
  /**
   * AUDIT_LOG_FILE: also append each entry as one JSON line to this file. Created with mode
   * 0600 if missing (an existing file keeps its mode); its folder must exist.
   */
  file?: string;
}

/** What an audit line holds, and all it may hold. */
interface AuditLine {
  event: 'contact_reveal';
  at: string;
  userId: string;
  teamId: string | null;
  channelId: string | null;
  contactCode: string | null;
  outcome: RevealAuditEntry['outcome'];
  reason?: string;
  people?: number;
}

const AUDIT_EVENT = 'contact_reveal';

export function createAuditLog(options: AuditLogOptions): AuditLog {
  const { logger } = options;
  const file = options.file ? openAuditFile(options.file, logger) : undefined;

  return {
    record(entry) {
      let line: AuditLine;
      try {
        line = toAuditLine(entry);
      } catch (error) {
        // A bad entry (an invalid Date) is a bug in the caller; it must not break the click.
        logger.error({ event: 'audit_entry_invalid', err: error }, 'could not write audit entry');
        return;
      }
      logger.info({ audit: true, ...line }, 'contact details reveal');
      file?.append(line);
    },
    close: () => file?.close() ?? Promise.resolve(),
  };
}

// Ids and codes are short tokens; anything longer, or with control characters, is cut so a
// crafted value cannot forge extra lines in the file or flood the log.
const MAX_FIELD = 64;
function clean(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '').slice(0, MAX_FIELD);
}

export function toAuditLine(entry: RevealAuditEntry): AuditLine {
  const line: AuditLine = {
    event: AUDIT_EVENT,
    at: entry.at.toISOString(),
    userId: clean(entry.userId),
    teamId: entry.teamId === undefined ? null : clean(entry.teamId),
    channelId: entry.channelId === undefined ? null : clean(entry.channelId),
    contactCode: entry.contactCode === undefined ? null : clean(entry.contactCode),
    outcome: entry.outcome,
  };
  if (entry.reason !== undefined) line.reason = clean(entry.reason);
  if (entry.people !== undefined && Number.isSafeInteger(entry.people) && entry.people >= 0) {
    line.people = entry.people;
  }
  return line;
}

interface AuditFile {
  append(line: AuditLine): void;
  close(): Promise<void>;
}

function openAuditFile(path: string, logger: AppLogger): AuditFile {
  // Append-only: flag 'a' never truncates and every write lands at the end, even when
  // another process appends to the same file.
  const stream: WriteStream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  let broken = false;
  let closing: Promise<void> | undefined;

  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (broken) return;
    broken = true;
    // Logged once; from now on entries go to the log only.
    logger.error(
      { event: 'audit_file_failed', code: error.code, syscall: error.syscall, path },
      'cannot write the audit log file; audit entries continue in the log only',
    );
  });

  return {
    append(line) {
      if (broken || closing || stream.destroyed) return;
      stream.write(`${JSON.stringify(line)}\n`);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (stream.closed || stream.destroyed) {
          resolve();
          return;
        }
        stream.once('close', () => resolve());
        // A stream that errored is destroyed and emits 'close' by itself; end() is harmless.
        stream.end();
      });
      return closing;
    },
  };
}
