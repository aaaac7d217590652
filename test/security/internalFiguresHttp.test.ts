/**
 * Internal figures through the real HTTP receiver: a card shared to a Slack Connect channel
 * carries a View button (and the contact card its own); a guest or a partner pressing any
 * button must get no cost and no account terms, while a member pressing the same button does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION, contactState, encodeState, itemState } from '../../src/views/actions.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { failOnEscapedRejections } from './helpers.js';

failOnEscapedRejections();

const COST = /Cost \(internal\)|· cost \d/;
const TERMS = /Credit limit|Discount \d|Terms |stop credit/i;

let run: RunningApp;
beforeAll(async () => {
  run = await startApp({
    mode: 'http',
    slack: {
      users: {
        UGUEST01: { is_restricted: true },
        // Slack Connect: users.info names the partner's own workspace.
        UPARTNER1: { team_id: 'TPARTNER1' },
      },
    },
  });
});
afterAll(async () => {
  await run?.stop();
});

/** A press on a card shared in the channel, by whoever `who` names, and the answer's text. */
async function press(
  actionId: string,
  value: string,
  who: { userId?: string; userTeamId?: string } = {},
): Promise<string> {
  const sent = await run.click(actionId, value, { ...who, isEphemeral: false });
  expect(sent.reply.status).toBe(200);
  const [answer] = await run.slack.waitForResponses(sent.responseUrl, 1, 10_000);
  return textOf(answer?.body ?? {});
}

const item = { code: 'WIDGET-9', id: 0 };
const acme = { code: 'ACMEWH01', clientid: 0 };

describe('cost on an item card', () => {
  const view = encodeState(itemState(item));
  const allBranches = encodeState(itemState(item, { allBranches: true }));
  const bom = encodeState(itemState(item, { part: 'bom' }));

  it('a member pressing View on a shared card sees cost on their private copy', async () => {
    expect(await press(ACTION.itemView, view)).toMatch(COST);
  });

  it('a guest pressing View, All branches or Refresh sees none', async () => {
    const guest = { userId: 'UGUEST01' };
    for (const [action, value] of [
      [ACTION.itemView, view],
      [ACTION.itemAllBranches, allBranches],
      [ACTION.itemPart, bom],
      [ACTION.itemRefresh, view],
    ] as const) {
      const text = await press(action, value, guest);
      expect(text, action).toContain('WIDGET-9');
      expect(text, action).not.toMatch(COST);
    }
  });

  it('a Slack Connect partner sees none, by the payload or by users.info', async () => {
    const byPayload = await press(ACTION.itemView, view, {
      userId: 'UPARTNER1',
      userTeamId: 'TPARTNER1',
    });
    expect(byPayload).toContain('WIDGET-9');
    expect(byPayload).not.toMatch(COST);
    // The payload claims our team; users.info says otherwise.
    const byUsersInfo = await press(ACTION.itemView, view, { userId: 'UPARTNER1' });
    expect(byUsersInfo).not.toMatch(COST);
  });
});

describe('account terms on a contact card', () => {
  const view = encodeState(contactState(acme, 0));

  it('a member pressing View sees them; a guest and a partner do not', async () => {
    expect(await press(ACTION.contactView, view)).toMatch(TERMS);
    for (const who of [{ userId: 'UGUEST01' }, { userId: 'UPARTNER1', userTeamId: 'TPARTNER1' }]) {
      const text = await press(ACTION.contactView, view, who);
      expect(text).toContain('ACMEWH01');
      expect(text).not.toMatch(TERMS);
    }
  });
});
