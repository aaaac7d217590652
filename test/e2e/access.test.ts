/**
 * Operator settings end to end: access rules per command, CONTACT_REVEAL=nobody, and the
 * reveal audit file.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION, encodeState } from '../../src/views/actions.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';

const auditFile = join(mkdtempSync(join(tmpdir(), 'erp-audit-')), 'audit.jsonl');
let run: RunningApp;

beforeAll(async () => {
  run = await startApp({
    env: {
      STOCK_ALLOWED_CHANNELS: 'CSALES01',
      CONTACT_REVEAL: 'nobody',
      AUDIT_LOG_FILE: auditFile,
    },
  });
});
afterAll(async () => {
  await run?.stop();
});

async function command(name: string, text: string, channelId?: string) {
  const { reply, ack } = await run.command(name, text, channelId ? { channel_id: channelId } : {});
  expect(reply.status).toBe(200);
  return ack ?? {};
}

/** The audit file's lines, once the append stream has written one (it writes asynchronously). */
async function auditLines(timeoutMs = 2000): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(auditFile) ? readFileSync(auditFile, 'utf8') : '';
    if (text.endsWith('\n'))
      return text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
    if (Date.now() > deadline) throw new Error(`no complete audit line in ${auditFile}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('access rules', () => {
  it('refuses /stock outside the allowed channels, before any ERP call', async () => {
    const before = run.sandbox.stats().requests.getItem ?? 0;
    const refused = await command('/stock', 'WIDGET-9');
    expect(textOf(refused)).toMatch(/not enabled in this channel/);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before);
    const allowed = await command('/stock', 'WIDGET-9', 'CSALES01');
    expect(textOf(allowed)).toContain('WIDGET-9');
  });

  it('applies the rule to the buttons of the command too', async () => {
    const { responseUrl } = await run.click(
      ACTION.itemRefresh,
      encodeState({ v: 1, t: 'i', r: { c: 'WIDGET-9' } }),
    );
    const [answer] = await run.slack.waitForResponses(responseUrl, 1);
    expect(answer?.body.replace_original).toBe(false);
    expect(textOf(answer?.body ?? {})).toMatch(/not enabled in this channel/);
  });
});

describe('CONTACT_REVEAL=nobody', () => {
  it('offers no Reveal button, refuses a forged click, and audits it to the file', async () => {
    const card = await command('/contact', 'ACME01');
    expect(buttonsOf(card).map((b) => b.text)).not.toContain('Reveal details');

    const { responseUrl } = await run.click(
      ACTION.contactReveal,
      encodeState({ v: 1, t: 'c', r: { c: 'ACME01' } }),
    );
    const [answer] = await run.slack.waitForResponses(responseUrl, 1);
    expect(answer?.body.response_type).toBe('ephemeral');
    expect(textOf(answer?.body ?? {})).not.toContain('@acme');
    const lines = await auditLines();
    expect(lines.at(-1)).toMatchObject({
      outcome: 'refused',
      contactCode: 'ACME01',
      reason: 'disabled',
    });
  });
});
