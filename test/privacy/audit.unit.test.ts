import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditLog, type RevealAuditEntry } from '../../src/privacy/audit.js';
import { collectingLogger } from './fakes.js';

const AT = new Date('2025-03-04T05:06:07.089Z');

const entry = (overrides: Partial<RevealAuditEntry> = {}): RevealAuditEntry => ({
  userId: 'U012ABCDEF',
  teamId: 'T0TEAM',
  channelId: 'C0CHAN',
  contactCode: 'ACME01',
  outcome: 'revealed',
  at: AT,
  ...overrides,
});

// What a careless caller might have at hand when recording a reveal.
const PERSONAL = {
  name: 'Jane Citizen',
  email: 'jane@acme.com.au',
  telephone: '+61 2 9999 0321',
  mobile: '0412 345 678',
};

const LINE_KEYS = ['at', 'channelId', 'contactCode', 'event', 'outcome', 'teamId', 'userId'];
const LOG_KEYS = [...LINE_KEYS, 'audit', 'level', 'msg', 'time'];

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'audit-test-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function readLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('audit log line', () => {
  it('holds exactly the allowed keys, ids and an ISO time, and no personal data', async () => {
    const { logger, lines } = collectingLogger();
    const file = join(tempDir(), 'audit.jsonl');
    const audit = createAuditLog({ logger, file });
    // Extra properties smuggled in at runtime must not reach either line.
    audit.record({ ...entry(), ...PERSONAL } as RevealAuditEntry);
    await audit.close();

    expect(lines).toHaveLength(1);
    const logLine = lines[0] ?? {};
    expect(Object.keys(logLine).sort()).toEqual(LOG_KEYS.sort());
    expect(logLine).toMatchObject({
      level: 'info',
      audit: true,
      event: 'contact_reveal',
      userId: 'U012ABCDEF',
      teamId: 'T0TEAM',
      channelId: 'C0CHAN',
      contactCode: 'ACME01',
      outcome: 'revealed',
      at: '2025-03-04T05:06:07.089Z',
    });

    const [fileLine, ...rest] = readLines(file);
    expect(rest).toEqual([]);
    expect(fileLine).toEqual({
      event: 'contact_reveal',
      at: '2025-03-04T05:06:07.089Z',
      userId: 'U012ABCDEF',
      teamId: 'T0TEAM',
      channelId: 'C0CHAN',
      contactCode: 'ACME01',
      outcome: 'revealed',
    });

    const everything = JSON.stringify(lines) + readFileSync(file, 'utf8');
    for (const value of Object.values(PERSONAL)) expect(everything).not.toContain(value);
  });

  it('records refusals with their reason, and missing team or channel as null', async () => {
    const { logger, lines } = collectingLogger();
    const file = join(tempDir(), 'audit.jsonl');
    const audit = createAuditLog({ logger, file });
    audit.record(
      entry({ outcome: 'refused', reason: 'guest', teamId: undefined, channelId: undefined }),
    );
    await audit.close();
    const expected = { outcome: 'refused', reason: 'guest', teamId: null, channelId: null };
    expect(lines[0]).toMatchObject(expected);
    expect(readLines(file)[0]).toMatchObject(expected);
  });

  it('cannot be made to forge a second line with control characters', async () => {
    const { logger } = collectingLogger();
    const file = join(tempDir(), 'audit.jsonl');
    const audit = createAuditLog({ logger, file });
    audit.record(entry({ contactCode: 'ACME01\n{"outcome":"fake"}' }));
    await audit.close();
    const fileLines = readLines(file);
    expect(fileLines).toHaveLength(1);
    expect(fileLines[0]?.contactCode).toBe('ACME01{"outcome":"fake"}');
  });
});

describe('audit file', () => {
  it('appends, keeping what was there, across records and across restarts', async () => {
    const { logger } = collectingLogger();
    const file = join(tempDir(), 'audit.jsonl');
    writeFileSync(file, `${JSON.stringify({ earlier: true })}\n`);

    const first = createAuditLog({ logger, file });
    first.record(entry({ contactCode: 'ACME01' }));
    first.record(entry({ contactCode: 'BOLT02', outcome: 'failed', reason: 'erp_timeout' }));
    await first.close();
    const second = createAuditLog({ logger, file });
    second.record(entry({ contactCode: 'CRANE3' }));
    await second.close();

    expect(readLines(file).map((l) => l.contactCode ?? 'earlier')).toEqual([
      'earlier',
      'ACME01',
      'BOLT02',
      'CRANE3',
    ]);
  });

  it.skipIf(process.platform === 'win32')(
    'creates a missing file readable by its owner only',
    async () => {
      const { logger } = collectingLogger();
      const file = join(tempDir(), 'new-audit.jsonl');
      const audit = createAuditLog({ logger, file });
      audit.record(entry());
      await audit.close();
      expect(statSync(file).mode & 0o777).toBe(0o600);
    },
  );

  it('an unwritable path never throws, is logged once, and entries still reach the log', async () => {
    const { logger, lines } = collectingLogger();
    const file = join(tempDir(), 'no-such-folder', 'audit.jsonl');
    const audit = createAuditLog({ logger, file });
    expect(() => {
      audit.record(entry({ contactCode: 'ACME01' }));
      audit.record(entry({ contactCode: 'BOLT02' }));
    }).not.toThrow();
    await audit.close();
    audit.record(entry({ contactCode: 'CRANE3' }));
    await audit.close();

    const failures = lines.filter((l) => l.event === 'audit_file_failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 'error', code: 'ENOENT' });
    expect(lines.filter((l) => l.audit === true).map((l) => l.contactCode)).toEqual([
      'ACME01',
      'BOLT02',
      'CRANE3',
    ]);
  });

  it('a path that is a folder does not throw either', async () => {
    const { logger, lines } = collectingLogger();
    const audit = createAuditLog({ logger, file: tempDir() });
    audit.record(entry());
    await audit.close();
    expect(lines.filter((l) => l.event === 'audit_file_failed')).toHaveLength(1);
  });

  it('without a file, only logs; close resolves', async () => {
    const { logger, lines } = collectingLogger();
    const audit = createAuditLog({ logger });
    audit.record(entry());
    await expect(audit.close()).resolves.toBeUndefined();
    expect(lines).toHaveLength(1);
  });
});

describe('the people count', () => {
  it('records how many people were revealed, a count and never who', async () => {
    const { toAuditLine } = await import('../../src/privacy/audit.js');
    const entry: RevealAuditEntry = {
      userId: 'U1',
      teamId: 'T1',
      channelId: 'C1',
      contactCode: 'ACME01',
      outcome: 'revealed',
      people: 2,
      at: new Date(0),
    };
    expect(toAuditLine(entry)).toMatchObject({ people: 2 });
    expect(toAuditLine({ ...entry, people: -1 })).not.toHaveProperty('people');
    expect(toAuditLine({ ...entry, people: undefined })).not.toHaveProperty('people');
  });
});
