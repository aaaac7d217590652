/**
 * Global setup of the test suite: a capture folder for the whole run, and at the end a scan
 * of every captured log line and message for secrets (ERP and Slack tokens, signing secrets,
 * Basic credentials) and for the sandbox's personal data (phones, e-mails; people's names in
 * logs). Personal data is allowed in exactly one place: a "Reveal details" answer sent
 * ephemerally as a new message. Every message with blocks is also checked against Block
 * Kit's limits. A finding fails `npm test`.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  DEFAULT_SANDBOX_SEED,
  generateSandboxData,
} from '../../src/sandbox/index.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { REVEAL_BLOCK_ID } from '../../src/views/contactReveal.js';
import type { SlackMessage } from '../../src/views/message.js';
import type { CapturedRecord } from './capture.js';

/** Token shapes that must never be printed, whoever registered them. */
const TOKEN_PATTERN = /xox[abpr]-[A-Za-z0-9-]{8,}|xapp-[A-Za-z0-9-]{8,}/;

interface Finding {
  source: string;
  what: string;
}

function personalData() {
  const data = generateSandboxData(DEFAULT_SANDBOX_SEED);
  const contacts = new Set<string>();
  const names = new Set<string>();
  for (const { record } of data.contacts) {
    for (const value of [record.telephone, record.email]) contacts.add(value);
    for (const person of record.addressbook) {
      for (const value of [person.telephone, person.mobile, person.email, person.email2]) {
        contacts.add(value);
      }
      if (person.name.includes(' ')) names.add(person.name);
    }
  }
  const minimal = (values: Set<string>) => [...values].filter((value) => value.length >= 8);
  return { contactDetails: minimal(contacts), names: minimal(names) };
}

/** Messages with blocks (acks, response_url posts, chat.postMessage) must fit Block Kit. */
function limitProblems(text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [];
  }
  const message = body as Partial<SlackMessage> | null;
  if (!message || !Array.isArray(message.blocks)) return [];
  return checkMessageLimits({ text: message.text ?? '', blocks: message.blocks });
}

function isRevealAnswer(text: string): boolean {
  try {
    const body = JSON.parse(text) as { blocks?: Array<{ block_id?: string }> };
    return body.blocks?.some((block) => block.block_id === REVEAL_BLOCK_ID) ?? false;
  } catch {
    return false;
  }
}

/**
 * A reveal answer is allowed only as a new ephemeral reply through the response_url, or
 * through chat.postEphemeral to one user (when the response_url was refused).
 */
function revealIsPrivate(record: CapturedRecord): boolean {
  const body = JSON.parse(record.text) as Record<string, unknown>;
  if (record.source === 'chat.postEphemeral') return typeof body.user === 'string';
  return (
    record.source === 'response_url' &&
    body.response_type === 'ephemeral' &&
    body.replace_original !== true
  );
}

export function scan(records: CapturedRecord[]): { findings: Finding[]; checked: number } {
  const { credentials } = { credentials: DEFAULT_SANDBOX_CREDENTIALS };
  const secrets = new Set(records.filter((r) => r.kind === 'secret').map((r) => r.text));
  secrets.add(credentials.accessToken);
  secrets.add(
    Buffer.from(`${credentials.companyCode}:${credentials.accessToken}`).toString('base64'),
  );
  const { contactDetails, names } = personalData();
  const findings: Finding[] = [];
  const output = records.filter((r) => r.kind !== 'secret');
  for (const record of output) {
    const where = `${record.kind} from ${record.source}`;
    for (const secret of secrets) {
      if (secret.length >= 6 && record.text.includes(secret))
        findings.push({ source: where, what: 'a secret' });
    }
    if (TOKEN_PATTERN.test(record.text)) findings.push({ source: where, what: 'a Slack token' });
    const reveal = record.kind === 'message' && isRevealAnswer(record.text);
    if (reveal && !revealIsPrivate(record)) {
      findings.push({ source: where, what: 'a reveal answer that others could see' });
    }
    if (!reveal && contactDetails.some((value) => record.text.includes(value))) {
      findings.push({ source: where, what: 'a sandbox phone number or e-mail address' });
    }
    if (record.kind === 'message') {
      for (const problem of limitProblems(record.text)) {
        findings.push({ source: where, what: `a message outside Block Kit's limits (${problem})` });
      }
    }
    if (record.kind === 'log' && names.some((name) => record.text.includes(name))) {
      findings.push({ source: where, what: "a person's name" });
    }
  }
  return { findings, checked: output.length };
}

function readCaptures(dir: string): CapturedRecord[] {
  return readdirSync(dir).flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CapturedRecord),
  );
}

export default function setup(): () => void {
  // vitest runs the global setup once per project (vitest.config.ts has two): the first one
  // owns the capture folder and its scan covers every project's files.
  const existing = process.env.TEST_CAPTURE_DIR;
  if (existing && existsSync(existing)) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'erp-lookups-capture-'));
  process.env.TEST_CAPTURE_DIR = dir;
  return () => {
    const records = readCaptures(dir);
    rmSync(dir, { recursive: true, force: true });
    const { findings, checked } = scan(records);
    const logs = records.filter((r) => r.kind === 'log').length;
    process.stdout.write(
      `\nLeak scan: ${checked} captured lines (${logs} log lines, ${checked - logs} messages), ${findings.length} findings\n`,
    );
    if (findings.length === 0) return;
    for (const finding of findings.slice(0, 20)) {
      process.stderr.write(`  leak: ${finding.what} in a ${finding.source}\n`);
    }
    // vitest ignores errors thrown by a global teardown; the exit code is what CI reads.
    process.exitCode = 1;
  };
}
