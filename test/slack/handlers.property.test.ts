/**
 * Hostile input at the listeners, called directly as Bolt would call them: no command text
 * and no button value, however odd, makes a handler throw; each is acknowledged exactly once
 * and answered with a message that is inside Slack's limits and notifies nobody.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { NotFoundError, ServerError, UnexpectedDataError } from '../../src/erp/errors.js';
import { createLogger } from '../../src/log/logger.js';
import { BusyError, type LookupService } from '../../src/lookup/types.js';
import type { ListenerDeps } from '../../src/slack/deps.js';
import { contactCommand } from '../../src/slack/listeners/commands/contact.js';
import { stockCommand } from '../../src/slack/listeners/commands/stock.js';
import { ACTION, type ActionBase, decodeState } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import type { SlackMessage } from '../../src/views/message.js';
import { answers, registeredActions } from '../helpers/actionListeners.js';
import {
  makeContact,
  makeContactRow,
  makeFreshness,
  makeItem,
  makeItemRow,
  makePage,
} from '../helpers/builders.js';
import { listenerDeps } from '../helpers/listenerDeps.js';
import { blockActionsPayload } from '../helpers/slack/index.js';
import { foreignMarkup, mrkdwnTexts } from '../views/inspect.js';

type Behaviour = 'ok' | 'not_found' | 'down' | 'busy' | 'drift';

function fakeLookup(behaviour: Behaviour): LookupService {
  const fail = () => {
    if (behaviour === 'not_found')
      throw new NotFoundError('nope', { endpoint: 'getItem', statusCode: 404 });
    if (behaviour === 'down')
      throw new ServerError('down', { endpoint: 'getItem', statusCode: 500 });
    if (behaviour === 'busy') throw new BusyError('getItem', 20_000);
    if (behaviour === 'drift') {
      throw new UnexpectedDataError('drift', {
        endpoint: 'getItem',
        issues: [{ path: 'x', message: 'y' }],
      });
    }
  };
  const freshness = makeFreshness();
  return {
    getItem: async (ref) => {
      fail();
      return { data: makeItem('code' in ref ? { code: ref.code } : { id: ref.id }), freshness };
    },
    getContact: async (ref) => {
      fail();
      return {
        data: makeContact('code' in ref ? { code: ref.code } : { clientid: ref.id }),
        freshness,
      };
    },
    searchItems: async (_query, offset) => {
      fail();
      return {
        data: makePage([makeItemRow(), makeItemRow({ code: 'X-2' })], { offset }),
        freshness,
      };
    },
    searchContacts: async (_query, offset) => {
      fail();
      return { data: makePage([makeContactRow()], { offset }), freshness };
    },
    expectedWaitMs: () => 0,
    queuePosition: () => ({ ownAhead: 0, waitMs: 0 }),
    breakerState: () => 'closed',
    close: async () => {},
  };
}

const logger = createLogger({ level: 'silent' });
const depsFor = (behaviour: Behaviour): ListenerDeps => listenerDeps(fakeLookup(behaviour), logger);

const client = {
  users: { info: async () => ({ ok: true, user: {} }) },
  usergroups: { users: { list: async () => ({ ok: true, users: [] }) } },
  chat: { postMessage: async () => ({ ok: true }) },
};

function expectSafe(message: unknown) {
  const body = message as { text?: string; blocks?: never[] } | undefined;
  if (!body || typeof body !== 'object') return;
  if (body.blocks) {
    expect(checkMessageLimits({ text: body.text ?? '', blocks: body.blocks })).toEqual([]);
  }
  // What Slack parses for markup: the mrkdwn objects and the fallback (never plain_text or
  // button values). Only our own date and channel tokens may remain.
  for (const text of [body.text ?? '', ...mrkdwnTexts(body as SlackMessage)]) {
    expect(foreignMarkup(text)).toEqual([]);
  }
}

const behaviours = fc.constantFrom<Behaviour>('ok', 'not_found', 'down', 'busy', 'drift');
const hostileText = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc
    .array(
      fc.constantFrom(
        '<!channel>',
        '<@U123|bob>',
        '&amp;',
        'id:',
        '#',
        '12',
        'category:',
        'type:',
        'x'.repeat(120),
        '../',
        '%2F',
        '\u0000',
        '\u202e',
        ' ',
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join('')),
);

describe('commands never throw', () => {
  for (const [name, factory] of [
    ['/stock', stockCommand],
    ['/contact', contactCommand],
  ] as const) {
    it(`${name} answers any text exactly once`, async () => {
      await fc.assert(
        fc.asyncProperty(hostileText, behaviours, async (text, behaviour) => {
          const ack = vi.fn(async (_message?: unknown) => {});
          const respond = vi.fn(async (_message: unknown) => ({}) as never);
          const command = {
            command: name,
            text,
            user_id: 'U123ABC',
            channel_id: 'C123ABC',
            team_id: 'T123ABC',
            response_url: 'https://hooks.slack.com/commands/T123ABC/1/abc',
          };
          await factory(depsFor(behaviour))({ command, ack, respond, client } as never);
          expect(ack).toHaveBeenCalledTimes(1);
          for (const call of [...ack.mock.calls, ...respond.mock.calls]) expectSafe(call[0]);
          expect(ack.mock.calls[0]?.[0] !== undefined || respond.mock.calls.length > 0).toBe(true);
        }),
        { numRuns: 150 },
      );
    });
  }
});

describe('buttons never throw', () => {
  const bases = Object.values(ACTION) as ActionBase[];
  const values = fc.oneof(
    fc.string({ maxLength: 100 }),
    fc.string({ minLength: 1990, maxLength: 2100 }),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record({
        v: fc.constantFrom(0, 1, 2),
        t: fc.constantFrom('i', 'c', 'is', 'cs', 'x'),
        r: fc.oneof(
          fc.record({ c: fc.string({ maxLength: 120 }) }),
          fc.record({ i: fc.integer() }),
        ),
        w: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
        o: fc.integer({ min: -5, max: 200 }),
        p: fc.array(fc.string({ maxLength: 8 }), { maxLength: 12 }),
      })
      .map((v) => JSON.stringify(v)),
  );
  it('every action answers any value, acknowledged once, never replacing on a refusal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bases),
        values,
        behaviours,
        async (base, value, behaviour) => {
          const ack = vi.fn(async () => {});
          const respond = vi.fn(async (_message: unknown) => ({}) as never);
          const body = blockActionsPayload({
            actionId: base,
            value,
            responseUrl: 'https://hooks.slack.com/actions/T1/1/abc',
          });
          const [action, ...others] = registeredActions(depsFor(behaviour)).filter((a) =>
            answers(a, base),
          );
          if (!action || others.length > 0) throw new Error(`not one listener for ${base}`);
          await action.listener({
            ack,
            respond,
            body,
            client,
            action: (body as { actions: unknown[] }).actions[0],
          } as never);
          expect(ack).toHaveBeenCalledTimes(1);
          expect(respond.mock.calls.length).toBeGreaterThan(0);
          for (const call of respond.mock.calls) expectSafe(call[0]);
          if (!decodeState(value).ok) {
            const replaced = respond.mock.calls.some(
              (call) => (call[0] as { replace_original?: boolean }).replace_original === true,
            );
            expect(replaced).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
