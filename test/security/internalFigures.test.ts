/**
 * Internal figures (cost, account terms) and who is external. A Slack Connect partner or a
 * guest pressing any button must not get them; the installing workspace comes from
 * auth.test, never from the payload's `team`; the presser's own team is what audit lines carry.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createInternalFigures, createMembership, viewerOf } from '../../src/privacy/access.js';
import { createRevealPolicy } from '../../src/privacy/revealPolicy.js';
import { drawnItemCard } from '../../src/slack/answers.js';
import { contactCard } from '../../src/views/contactCard.js';
import { itemCard } from '../../src/views/itemCard.js';
import {
  makeBomComponent,
  makeContact,
  makeFreshness,
  makeItem,
  TEST_NOW,
} from '../helpers/builders.js';
import { collectingLogger, fakeSlack, HOME_TEAM } from '../privacy/fakes.js';
import { allText } from '../views/inspect.js';

const slackConnectClick = JSON.parse(
  readFileSync(
    new URL('../helpers/slack/fixtures/block_actions_slack_connect.json', import.meta.url),
    'utf8',
  ),
) as Record<string, unknown>;

const setup = (options: Parameters<typeof fakeSlack>[0] = {}) => {
  const log = collectingLogger();
  const slack = fakeSlack(options);
  const membership = createMembership({ logger: log.logger });
  const policy = createInternalFigures({ membership, logger: log.logger });
  return { ...slack, membership, policy, lines: log.lines };
};

describe('who is a full member of the installing workspace', () => {
  it('is a member of the team auth.test names, with no guest, stranger or bot flag', async () => {
    const { client, policy, calls } = setup({
      users: {
        UMEMBER: {},
        UGUEST: { is_restricted: true },
        USINGLE: { is_ultra_restricted: true },
        UINVITED: { is_invited_user: true },
        UBOT: { is_bot: true },
        UGONE: { deleted: true },
        USTRANGER: { is_stranger: true },
      },
    });
    const figures = async (userId: string) =>
      policy.internalFigures({ userId, teamId: HOME_TEAM }, client);
    expect(await figures('UMEMBER')).toBe(true);
    for (const other of ['UGUEST', 'USINGLE', 'UINVITED', 'UBOT', 'UGONE', 'USTRANGER']) {
      expect(await figures(other), other).toBe(false);
    }
    expect(await figures('UNKNOWN')).toBe(false);
    // The installing workspace is asked for once.
    expect(calls.authTest).toBe(1);
  });

  it('takes the Slack Connect payload for external without asking users.info', async () => {
    // The fixture's `team` is the installing workspace T0001; its presser's own team is T0002.
    const { client, membership, calls } = setup({
      authTest: { ok: true, team_id: 'T0001' },
      users: { U0002: { team_id: 'T0001' } },
    });
    const viewer = viewerOf(slackConnectClick);
    expect(viewer).toEqual({ userId: 'U0002', teamId: 'T0002' });
    if (!viewer) throw new Error('no viewer');
    expect(await membership.standing(viewer, client)).toEqual({
      standing: 'external',
      teamId: 'T0002',
    });
    expect(calls.usersInfo).toEqual([]);
  });

  it("compares users.info's own team, not the payload's: a payload naming our team is not enough", async () => {
    const { client, membership } = setup({ users: { UPARTNER: { team_id: 'TPARTNER' } } });
    expect(await membership.standing({ userId: 'UPARTNER', teamId: HOME_TEAM }, client)).toEqual({
      standing: 'external',
      teamId: 'TPARTNER',
    });
    // Without any team in the payload, users.info alone decides.
    expect(await membership.standing({ userId: 'UPARTNER' }, client)).toMatchObject({
      standing: 'external',
    });
  });

  it("never takes the payload's installing `team` as the home workspace", async () => {
    // auth.test says THOME; the payload's team and the presser's both say TPARTNER.
    const { client, policy } = setup({ users: { UPARTNER: { team_id: 'TPARTNER' } } });
    const click = { ...slackConnectClick, team: { id: 'TPARTNER' } };
    const viewer = viewerOf({ ...click, user: { id: 'UPARTNER', team_id: 'TPARTNER' } });
    expect(await policy.internalFigures(viewer, client)).toBe(false);
  });

  it('in an Enterprise org, accepts a member of the org who is in the installing workspace', async () => {
    const { client, membership } = setup({
      authTest: { ok: true, team_id: 'T0001', enterprise_id: 'E0001' },
      users: {
        // users.info may name another workspace of the org as the user's team.
        UORG: { team_id: 'T0009', enterprise_user: { enterprise_id: 'E0001', teams: ['T0001'] } },
        UNOTHERE: {
          team_id: 'T0009',
          enterprise_user: { enterprise_id: 'E0001', teams: ['T0009'] },
        },
        UOTHERORG: {
          team_id: 'T0009',
          enterprise_user: { enterprise_id: 'E0002', teams: ['T0001'] },
        },
      },
    });
    // An org-level payload may name the enterprise as the user's team.
    const standing = async (userId: string) =>
      (await membership.standing({ userId, teamId: 'E0001' }, client)).standing;
    expect(await standing('UORG')).toBe('member');
    expect(await standing('UNOTHERE')).toBe('external');
    expect(await standing('UOTHERORG')).toBe('external');
  });

  it('fails closed when auth.test or users.info fails, logs ids only, and asks again (users.info after a few seconds)', async () => {
    const down = setup({ failAuthTest: true, users: { UMEMBER: {} } });
    const viewer = { userId: 'UMEMBER', teamId: HOME_TEAM };
    expect(await down.policy.internalFigures(viewer, down.client)).toBe(false);
    expect(await down.policy.internalFigures(viewer, down.client)).toBe(false);
    expect(down.calls.authTest).toBe(2);
    expect(down.lines.filter((l) => l.level === 'warn')[0]).toMatchObject({
      event: 'membership_check_failed',
      method: 'auth.test',
      error: 'invalid_auth',
    });

    const failing = setup({ failUsers: true });
    expect(await failing.policy.internalFigures(viewer, failing.client)).toBe(false);
    expect(await failing.policy.internalFigures({ userId: 'UMEMBER' }, failing.client)).toBe(false);
    // The failure is remembered for a few seconds: no users.info call per press meanwhile.
    expect(failing.calls.usersInfo).toHaveLength(1);
    expect(JSON.stringify(failing.lines)).not.toContain('An API error occurred');
  });

  it('refuses unreadable answers and implausible ids without trusting them', async () => {
    const wrongType = setup({ rawUserAnswer: { ok: true, user: { is_restricted: 'no' } } });
    expect(await wrongType.policy.internalFigures({ userId: 'UMEMBER' }, wrongType.client)).toBe(
      false,
    );
    const noTeam = setup({ authTest: { ok: true } });
    expect(await noTeam.policy.internalFigures({ userId: 'UMEMBER' }, noTeam.client)).toBe(false);
    const { client, policy, calls } = setup({ users: { UMEMBER: {} } });
    expect(await policy.internalFigures({ userId: 'U1/../x' }, client)).toBe(false);
    expect(await policy.internalFigures(undefined, client)).toBe(false);
    expect(calls.usersInfo).toEqual([]);
  });

  it('reads the presser from a slash command too, and nothing from a payload without one', () => {
    expect(viewerOf({ user_id: 'U1', team_id: 'T1', text: 'x' })).toEqual({
      userId: 'U1',
      teamId: 'T1',
    });
    expect(viewerOf({ team: { id: 'T1' } })).toBeUndefined();
    expect(viewerOf(null)).toBeUndefined();
  });

  it('refuses a Slack Connect reveal the same way, sharing one users.info answer', async () => {
    const { client, membership, calls, lines } = setup({ users: { UPARTNER: { team_id: 'TX' } } });
    const reveal = createRevealPolicy(
      { kind: 'members' },
      { logger: collectingLogger().logger, membership },
    );
    const figures = createInternalFigures({ membership, logger: collectingLogger().logger });
    expect(await reveal.mayReveal('UPARTNER', client, { userTeamId: HOME_TEAM })).toEqual({
      allowed: false,
      reason: 'external',
      teamId: 'TX',
    });
    expect(await figures.internalFigures({ userId: 'UPARTNER' }, client)).toBe(false);
    expect(calls.usersInfo).toEqual(['UPARTNER']);
    expect(lines).toEqual([]);
  });
});

describe('the cards drawn for someone who is not a full member', () => {
  const bom = [makeBomComponent({ code: 'PART-1', cost: 3.25, has_bom: true })];
  const item = makeItem({ cost: 12.5, bom });
  const base = { item, freshness: makeFreshness(), now: TEST_NOW };
  const COST = /Cost \(internal\)|cost 3\.25|12\.50/;

  it('item: no cost or component cost, private or shared, whatever SHARE_COST says', () => {
    expect(allText(itemCard({ ...base, internalFigures: true }))).toMatch(COST);
    expect(allText(itemCard({ ...base, internalFigures: true, part: 'bom' }))).toMatch(
      /cost 3\.25/,
    );
    for (const extra of [
      {},
      { internalFigures: false },
      { internalFigures: false, shareCost: true },
      { internalFigures: false, shareCost: true, shared: true },
      { shared: true, shareCost: true },
    ]) {
      const text = allText(itemCard({ ...base, ...extra }));
      expect(text, JSON.stringify(extra)).not.toMatch(COST);
      const bomText = allText(itemCard({ ...base, ...extra, part: 'bom' }));
      expect(bomText, JSON.stringify(extra)).not.toMatch(COST);
      expect(bomText).toContain('PART-1');
    }
    expect(
      allText(itemCard({ ...base, internalFigures: true, shared: true, shareCost: true })),
    ).toMatch(COST);
  });

  it("the drawn-card cache never hands a member's card to a guest", () => {
    const member = drawnItemCard({ ...base, internalFigures: true });
    const guest = drawnItemCard({ ...base, internalFigures: false });
    expect(allText(member)).toMatch(COST);
    expect(allText(guest)).not.toMatch(COST);
  });

  const contact = makeContact({
    terms: '30 days EOM',
    climit: 12_500.5,
    discount: 7.5,
    stopcred: 1,
  });
  const contactBase = { contact, freshness: makeFreshness(), now: TEST_NOW, canReveal: true };
  const TERMS = /Credit limit|12,500\.5|Discount|30 days EOM|Stop credit|stop credit|\*Terms\*/;

  it('contact: no credit limit, discount, terms or stop credit, anywhere in the message', () => {
    const member = contactCard({ ...contactBase, internalFigures: true });
    expect(allText(member)).toMatch(TERMS);
    expect(member.text).toContain('stop credit');
    for (const extra of [
      {},
      { internalFigures: false },
      { internalFigures: false, shareAccountTerms: true, shared: true },
      { internalFigures: true, shared: true },
      { internalFigures: true, shared: true, shareCost: true },
    ]) {
      const message = contactCard({ ...contactBase, ...extra });
      expect(allText(message), JSON.stringify(extra)).not.toMatch(TERMS);
      expect(message.text).not.toMatch(TERMS);
      expect(allText(message)).toContain('ABN 51 824 753 556');
    }
  });

  it('contact: shared with the terms when SHARE_ACCOUNT_TERMS and the sharer is a member', () => {
    const shared = contactCard({
      ...contactBase,
      internalFigures: true,
      shared: true,
      shareAccountTerms: true,
    });
    expect(allText(shared)).toContain('Credit limit 12,500.5');
  });
});
