import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_SEED, generateSandboxData } from '../../src/sandbox/index.js';
import { contactReveal, REVEAL_BLOCK_ID } from '../../src/views/contactReveal.js';
import type { CapturedRecord } from '../helpers/capture.js';
import { scan } from '../helpers/leakScan.js';

const acme = generateSandboxData(DEFAULT_SANDBOX_SEED).contacts.find(
  (c) => c.record.code === 'ACME01',
)?.record;
const email = acme?.addressbook.find((p) => p.email.length >= 8)?.email ?? '';
const revealBody = (extra: Record<string, unknown>) =>
  JSON.stringify({ ...contactReveal({ contact: acme as never, now: new Date() }), ...extra });

const findingsOf = (records: CapturedRecord[]) => scan(records).findings.map((f) => f.what);

describe('the suite-wide leak scan', () => {
  it('finds registered secrets and token shapes in logs and messages', () => {
    expect(
      findingsOf([
        { kind: 'secret', source: 'test', text: 'my-erp-token-123' },
        { kind: 'log', source: 'app', text: '{"msg":"calling with my-erp-token-123"}' },
        { kind: 'message', source: 'response_url', text: '{"text":"xoxb-1234567890-abc"}' },
      ]),
    ).toEqual(['a secret', 'a Slack token']);
  });

  it("finds the sandbox's personal data outside reveal answers", () => {
    expect(email).not.toBe('');
    expect(
      findingsOf([
        { kind: 'message', source: 'response_url', text: JSON.stringify({ text: email }) },
        { kind: 'log', source: 'app', text: JSON.stringify({ msg: `bad ${email}` }) },
      ]),
    ).toEqual([
      'a sandbox phone number or e-mail address',
      'a sandbox phone number or e-mail address',
    ]);
  });

  it('allows personal data only in a reveal answer sent as a new ephemeral message', () => {
    expect(revealBody({})).toContain(REVEAL_BLOCK_ID);
    expect(
      findingsOf([
        {
          kind: 'message',
          source: 'response_url',
          text: revealBody({ response_type: 'ephemeral', replace_original: false }),
        },
      ]),
    ).toEqual([]);
    expect(
      findingsOf([
        {
          kind: 'message',
          source: 'response_url',
          text: revealBody({ response_type: 'in_channel' }),
        },
        { kind: 'message', source: 'chat.postMessage', text: revealBody({}) },
      ]),
    ).toEqual(['a reveal answer that others could see', 'a reveal answer that others could see']);
  });
});

describe('Block Kit limits in the scan', () => {
  it('flags a captured message that breaks a limit', () => {
    const tooMany = { text: 'x', blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) };
    const found = findingsOf([
      { kind: 'message', source: 'response_url', text: JSON.stringify(tooMany) },
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/Block Kit/);
  });
});
