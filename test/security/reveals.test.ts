/**
 * Every Reveal press is audited, and `members` means full members of the installing
 * workspace (issue 12, items 3 and 4), through Bolt's real HTTP receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION, encodeState } from '../../src/views/actions.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { SLACK_DEFAULTS } from '../helpers/slack/index.js';

const REVEAL_ACME = encodeState({ v: 1, t: 'c', r: { c: 'ACME01' } });
const EXTERNAL_TEAM = 'T0OTHERORG';

/** The audit lines the app logged so far, parsed. */
function auditLines(run: RunningApp): Array<Record<string, unknown>> {
  return run.logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.audit === true);
}

/** Presses Reveal and waits for the answer; returns the answer and the newest audit line. */
async function press(
  run: RunningApp,
  value: string,
  options: { userId?: string; userTeamId?: string; channelId?: string } = {},
) {
  const before = auditLines(run).length;
  const { reply, responseUrl } = await run.click(ACTION.contactReveal, value, options);
  expect(reply.status).toBe(200);
  const [answer] = await run.slack.waitForResponses(responseUrl, 1);
  const lines = auditLines(run);
  expect(lines.length).toBe(before + 1);
  return { answer: textOf(answer?.body ?? {}), audit: lines.at(-1) ?? {} };
}

describe('CONTACT_REVEAL=members', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({
      env: { CONTACT_ALLOWED_CHANNELS: `${SLACK_DEFAULTS.channelId},CSALES01` },
      slack: {
        users: {
          UGUEST01: { is_restricted: true },
          USTRANGER1: { is_stranger: true, team_id: EXTERNAL_TEAM },
          UCONNECT1: { team_id: EXTERNAL_TEAM },
          UGONE0001: { deleted: true },
        },
      },
    });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('audits a granted reveal with who, which contact, where and when, and no details', async () => {
    const { audit } = await press(run, REVEAL_ACME);
    expect(audit).toMatchObject({
      event: 'contact_reveal',
      outcome: 'revealed',
      userId: SLACK_DEFAULTS.userId,
      teamId: SLACK_DEFAULTS.teamId,
      channelId: SLACK_DEFAULTS.channelId,
      contactCode: 'ACME01',
    });
    expect(Date.parse(String(audit.at))).not.toBeNaN();
    expect(JSON.stringify(audit)).not.toMatch(/@|telephone|email/i);
  });

  it('audits a press with a tampered, a non-JSON or an expired button value', async () => {
    const tampered = await press(run, '{"v":1,"t":"c","r":{"c":""}}');
    expect(tampered.audit).toMatchObject({
      outcome: 'refused',
      reason: 'invalid_value',
      userId: SLACK_DEFAULTS.userId,
      contactCode: null,
    });
    expect((await press(run, 'not json')).audit).toMatchObject({ reason: 'invalid_value' });
    const expired = await press(run, '{"v":0,"t":"c","r":{"c":"ACME01"}}');
    expect(expired.audit).toMatchObject({ outcome: 'refused', reason: 'expired_value' });
    expect(expired.answer).toMatch(/out of date/);
  });

  it('audits a press whose payload does not have the expected shape, without its unshaped id', async () => {
    const { audit, answer } = await press(run, REVEAL_ACME, { userId: 'not-a-slack-id' });
    expect(answer).toMatch(/cannot read/);
    // A user id that is not shaped like one is not written anywhere, audit lines included.
    expect(audit).toMatchObject({
      outcome: 'refused',
      reason: 'invalid_payload',
      userId: 'unknown',
      contactCode: null,
    });
  });

  it('audits a press refused by the access lists of /contact', async () => {
    const { audit, answer } = await press(run, REVEAL_ACME, { channelId: 'CRANDOM01' });
    expect(answer).toMatch(/not enabled in this channel/);
    expect(audit).toMatchObject({
      outcome: 'refused',
      reason: 'channel_not_allowed',
      channelId: 'CRANDOM01',
      contactCode: 'ACME01',
    });
  });

  it('refuses a user of another organisation in a Slack Connect channel (payload team)', async () => {
    const { audit, answer } = await press(run, REVEAL_ACME, {
      userId: 'UCONNECT1',
      userTeamId: EXTERNAL_TEAM,
    });
    expect(audit).toMatchObject({ outcome: 'refused', reason: 'external', userId: 'UCONNECT1' });
    expect(answer).toMatch(/other organisations/);
    expect(answer).not.toMatch(/@acme/);
  });

  it('refuses a user users.info calls a stranger, even when the payload names our team', async () => {
    const { audit } = await press(run, REVEAL_ACME, { userId: 'USTRANGER1' });
    // The audit line names the team users.info reported, not the one the payload claimed.
    expect(audit).toMatchObject({ outcome: 'refused', reason: 'external', teamId: EXTERNAL_TEAM });
  });

  it('refuses guests and deactivated accounts, and refuses when users.info fails', async () => {
    expect((await press(run, REVEAL_ACME, { userId: 'UGUEST01' })).audit).toMatchObject({
      reason: 'guest',
    });
    expect((await press(run, REVEAL_ACME, { userId: 'UGONE0001' })).audit).toMatchObject({
      reason: 'deactivated',
    });
    expect((await press(run, REVEAL_ACME, { userId: 'UNOBODY01' })).audit).toMatchObject({
      reason: 'lookup_failed',
    });
  });
});

describe('CONTACT_REVEAL as a list', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({
      env: { CONTACT_REVEAL: 'UCONNECT1' },
      slack: { users: { UCONNECT1: { is_stranger: true, team_id: EXTERNAL_TEAM } } },
    });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('lets an explicitly listed external user reveal, and audits who is not on the list', async () => {
    const listed = await press(run, REVEAL_ACME, {
      userId: 'UCONNECT1',
      userTeamId: EXTERNAL_TEAM,
    });
    expect(listed.audit).toMatchObject({ outcome: 'revealed', userId: 'UCONNECT1' });
    const other = await press(run, REVEAL_ACME);
    expect(other.audit).toMatchObject({ outcome: 'refused', reason: 'not_listed' });
  });
});
