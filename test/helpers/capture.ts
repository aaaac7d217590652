/**
 * The leak scan's capture: tests hand it every log line and every message the app produced,
 * and the secrets they used; `leakScan.ts` checks all of it when the whole suite has run.
 * Outside `npm test` (no TEST_CAPTURE_DIR) it does nothing.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export type CaptureKind = 'log' | 'message' | 'secret';

export interface CapturedRecord {
  kind: CaptureKind;
  /** Where it came from, e.g. `response_url` or `chat.postMessage`. */
  source: string;
  text: string;
}

export function capture(kind: CaptureKind, source: string, text: string): void {
  const dir = process.env.TEST_CAPTURE_DIR;
  if (!dir || text === '') return;
  const record: CapturedRecord = { kind, source, text };
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(record)}\n`);
}

/** A secret the suite used: it must appear in no captured log line or message. */
export function captureSecret(secret: string): void {
  capture('secret', 'test', secret);
}
