import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  createRevealPolicy,
  type RevealDecision,
  revealRefusal,
  type SlackUsersApi,
} from '../../src/privacy/revealPolicy.js';
import { collectingLogger, fakeSlack } from './fakes.js';

const members = { kind: 'members' } as const;

function policyWith(policy: Parameters<typeof createRevealPolicy>[0], ttlMs = 60_000) {
  const log = collectingLogger();
  let clock = 1_000;
  const checker = createRevealPolicy(policy, {
    logger: log.logger,
    cacheTtlMs: ttlMs,
    now: () => clock,
  });
  return { checker, lines: log.lines, advance: (ms: number) => (clock += ms) };
}

describe('members policy (default)', () => {
  const slack = () =>
    fakeSlack({
      users: {
        UMEMBER: { is_restricted: false, is_ultra_restricted: false },
        UGUEST1: { is_restricted: true },
        UGUEST2: { is_ultra_restricted: true, is_restricted: false },
        UGONE: { deleted: true },
      },
    });

  it('allows a full member', async () => {
    const { client } = slack();
    const { checker } = policyWith(members);
    expect(await checker.mayReveal('UMEMBER', client)).toEqual({ allowed: true, teamId: 'THOME' });
    expect(checker.canOffer()).toBe(true);
  });

  it('refuses multi-channel (restricted) and single-channel (ultra restricted) guests', async () => {
    const { client } = slack();
    const { checker } = policyWith(members);
    const guest = { allowed: false, reason: 'guest', teamId: 'THOME' };
    expect(await checker.mayReveal('UGUEST1', client)).toEqual(guest);
    expect(await checker.mayReveal('UGUEST2', client)).toEqual(guest);
  });

  it('refuses a deactivated account', async () => {
    const { client } = slack();
    const { checker } = policyWith(members);
    expect(await checker.mayReveal('UGONE', client)).toEqual({
      allowed: false,
      reason: 'deactivated',
      teamId: 'THOME',
    });
  });

  it('makes one users.info call for a burst of clicks, concurrent or not', async () => {
    const { client, calls } = slack();
    const { checker } = policyWith(members);
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => checker.mayReveal('UMEMBER', client)),
    );
    await checker.mayReveal('UMEMBER', client);
    expect(burst.every((d) => d.allowed)).toBe(true);
    expect(calls.usersInfo).toEqual(['UMEMBER']);
  });

  it('asks again once the cached answer has expired', async () => {
    const { client, calls } = slack();
    const { checker, advance } = policyWith(members, 60_000);
    await checker.mayReveal('UGUEST1', client);
    advance(59_000);
    await checker.mayReveal('UGUEST1', client);
    expect(calls.usersInfo).toHaveLength(1);
    advance(2_000);
    await checker.mayReveal('UGUEST1', client);
    expect(calls.usersInfo).toHaveLength(2);
  });

  it('fails closed when Slack fails, logs a warning without the answer, and retries a few seconds later', async () => {
    const { client, calls } = fakeSlack({ failUsers: true });
    const { checker, lines, advance } = policyWith(members);
    const [first, second] = await Promise.all([
      checker.mayReveal('UMEMBER', client),
      checker.mayReveal('UMEMBER', client),
    ]);
    expect(first).toEqual({ allowed: false, reason: 'lookup_failed' });
    expect(second).toEqual({ allowed: false, reason: 'lookup_failed' });
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ method: 'users.info', error: 'user_not_found' });
    expect(JSON.stringify(warnings[0])).not.toContain('An API error occurred');

    // A failure is remembered for a few seconds (no call per press while Slack fails), then
    // asked again.
    await checker.mayReveal('UMEMBER', client);
    expect(calls.usersInfo).toHaveLength(1);
    advance(16_000);
    await checker.mayReveal('UMEMBER', client);
    expect(calls.usersInfo).toHaveLength(2);
  });

  it('fails closed on an answer it cannot read (ok:false, no user, wrong types)', async () => {
    const { checker } = policyWith(members);
    for (const raw of [{ ok: false }, { ok: true }, { ok: true, user: { is_restricted: 'no' } }]) {
      const { client } = fakeSlack({ rawUserAnswer: raw });
      expect(await checker.mayReveal('UMEMBER', client)).toEqual({
        allowed: false,
        reason: 'lookup_failed',
      });
    }
  });

  it('refuses an implausible user id without calling Slack', async () => {
    const { client, calls } = slack();
    const { checker } = policyWith(members);
    expect(await checker.mayReveal('', client)).toMatchObject({ allowed: false });
    expect(await checker.mayReveal('U1/../x', client)).toMatchObject({ allowed: false });
    expect(calls.usersInfo).toEqual([]);
  });
});

describe('everyone and nobody', () => {
  it('everyone: allowed without any Slack call, guests included', async () => {
    const { client, calls } = fakeSlack({ users: { UGUEST1: { is_restricted: true } } });
    const { checker } = policyWith({ kind: 'everyone' });
    expect(await checker.mayReveal('UGUEST1', client)).toEqual({ allowed: true });
    expect(checker.canOffer()).toBe(true);
    expect(calls.usersInfo).toEqual([]);
  });

  it('nobody: refused as disabled, and the button is not offered', async () => {
    const { client, calls } = fakeSlack();
    const { checker } = policyWith({ kind: 'nobody' });
    expect(await checker.mayReveal('UMEMBER', client)).toEqual({
      allowed: false,
      reason: 'disabled',
    });
    expect(checker.canOffer()).toBe(false);
    expect(calls.usersInfo).toEqual([]);
  });
});

describe('list policy', () => {
  const list = { kind: 'list', users: ['UALICE'], userGroups: ['SSALES', 'SSUPPORT'] } as const;
  const groups = { SSALES: ['UBOB'], SSUPPORT: ['UCAROL', 'UDAVE'] };

  it('allows a listed user without any Slack call', async () => {
    const { client, calls } = fakeSlack({ groups });
    const { checker } = policyWith(list);
    expect(await checker.mayReveal('UALICE', client)).toEqual({ allowed: true });
    expect(calls).toEqual({ usersInfo: [], groupList: [], authTest: 0 });
  });

  it('allows members of any listed user group, caching each group', async () => {
    const { client, calls } = fakeSlack({ groups });
    const { checker } = policyWith(list);
    expect(await checker.mayReveal('UBOB', client)).toEqual({ allowed: true });
    expect(await checker.mayReveal('UDAVE', client)).toEqual({ allowed: true });
    expect(await checker.mayReveal('UCAROL', client)).toEqual({ allowed: true });
    expect(calls.groupList).toEqual(['SSALES', 'SSUPPORT']);
  });

  it('refuses everyone else as not listed', async () => {
    const { client } = fakeSlack({ groups });
    const { checker } = policyWith(list);
    expect(await checker.mayReveal('UEVE', client)).toEqual({
      allowed: false,
      reason: 'not_listed',
    });
  });

  it('a group that cannot be read makes the answer lookup_failed, not not_listed', async () => {
    const { client } = fakeSlack({ groups, failGroups: ['SSALES'] });
    const { checker, lines } = policyWith(list);
    expect(await checker.mayReveal('UEVE', client)).toEqual({
      allowed: false,
      reason: 'lookup_failed',
    });
    // A member of the readable group is still allowed.
    expect(await checker.mayReveal('UCAROL', client)).toEqual({ allowed: true });
    expect(lines.filter((l) => l.level === 'warn')[0]).toMatchObject({
      method: 'usergroups.users.list',
      slackId: 'SSALES',
    });
  });
});

describe('external users (Slack Connect)', () => {
  const home = { homeTeamId: 'THOME', userTeamId: 'THOME' };

  it('refuses a presser whose payload names another workspace, without asking Slack', async () => {
    const { client, calls } = fakeSlack({ users: { UPARTNER: {} } });
    const { checker } = policyWith(members);
    const decision = await checker.mayReveal('UPARTNER', client, { ...home, userTeamId: 'TOTHER' });
    expect(decision).toEqual({ allowed: false, reason: 'external', teamId: 'TOTHER' });
    expect(calls.usersInfo).toEqual([]);
  });

  it('refuses a user users.info calls a stranger, even with our team in the payload', async () => {
    const { client } = fakeSlack({ users: { USTRANGER: { is_stranger: true } } });
    const { checker } = policyWith(members);
    expect(await checker.mayReveal('USTRANGER', client, home)).toEqual({
      allowed: false,
      reason: 'external',
      teamId: 'THOME',
    });
  });

  it('names the presser’s own team as users.info reports it, not as the payload says', async () => {
    const { client } = fakeSlack({ users: { UPARTNER: { team_id: 'TPARTNER' } } });
    const { checker } = policyWith(members);
    expect(await checker.mayReveal('UPARTNER', client, home)).toEqual({
      allowed: false,
      reason: 'external',
      teamId: 'TPARTNER',
    });
  });

  it('lets a list name an external user explicitly', async () => {
    const { client } = fakeSlack({ users: { USTRANGER: { is_stranger: true } } });
    const { checker } = policyWith({ kind: 'list', users: ['USTRANGER'], userGroups: [] });
    const decision = await checker.mayReveal('USTRANGER', client, { ...home, userTeamId: 'TX' });
    expect(decision).toEqual({ allowed: true });
  });
});

describe('revealRefusal', () => {
  it('has plain words for every refusal and none for an allowed decision', () => {
    const reasons = [
      'guest',
      'external',
      'not_listed',
      'disabled',
      'lookup_failed',
      'deactivated',
    ] as const;
    const words = reasons.map((reason) => revealRefusal({ allowed: false, reason }));
    for (const text of words) expect(text.length).toBeGreaterThan(10);
    expect(new Set(words).size).toBe(reasons.length);
    expect(revealRefusal({ allowed: true } satisfies RevealDecision)).toBe('');
  });
});

describe('SlackUsersApi', () => {
  it("is satisfied by @slack/web-api's WebClient", () => {
    // Compile-time check: this assignment fails `tsc` if the interface drifts from WebClient.
    const client: SlackUsersApi = new webApi.WebClient(undefined, { retryConfig: { retries: 0 } });
    expect(typeof client.users.info).toBe('function');
  });
});

it('rejects a non-positive cache lifetime at construction', () => {
  const { logger } = collectingLogger();
  expect(() => createRevealPolicy(members, { logger, cacheTtlMs: 0 })).toThrow(RangeError);
});
