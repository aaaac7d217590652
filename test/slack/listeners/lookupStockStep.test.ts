/**
 * One run of the workflow step without Slack: inputs checked by zod, the lookup service's
 * failures (busy budget, ERP down, odd data) turned into one plain sentence, the run's own
 * requester in the budget, and outputs that follow the /stock verdict.
 */

import { describe, expect, it } from 'vitest';
import { RateLimitedError, ServerError, UnexpectedDataError } from '../../../src/erp/errors.js';
import type { Item } from '../../../src/erp/schemas.js';
import { groupMember } from '../../../src/lookup/fairQueue.js';
import { BusyError, type LookupOptions, type LookupService } from '../../../src/lookup/types.js';
import {
  lookupStockStep,
  parseStepInputs,
  runLookupStock,
  stepRequester,
} from '../../../src/slack/listeners/functions/lookupStock.js';
import { makeBranch, makeItem } from '../../helpers/builders.js';
import { listenerDeps } from '../../helpers/listenerDeps.js';
import { collectingLogger } from '../../helpers/logSink.js';

function stubLookup(answer: (options: LookupOptions) => Item | Error) {
  const asked: LookupOptions[] = [];
  const lookup = {
    getItem: async (_ref: unknown, options: LookupOptions = {}) => {
      asked.push(options);
      const result = answer(options);
      if (result instanceof Error) throw result;
      return {
        data: result,
        freshness: { fetchedAt: new Date(), fromCache: false, stale: false },
      };
    },
  } as unknown as LookupService;
  return { lookup, asked };
}

const item = makeItem({
  code: 'WIDGET-9',
  description: 'Blue   Steel\nWidget',
  branches: [
    makeBranch({ id: 1, name: 'Perth', soh: 10, allocated: 12, onorder: 7 }),
    makeBranch({ id: 2, name: 'Sydney', soh: 80, allocated: 0, onorder: 0 }),
  ],
});

function deps(answer: (options: LookupOptions) => Item | Error) {
  const { lookup, asked } = stubLookup(answer);
  const { logger, lines } = collectingLogger('trace');
  return { deps: listenerDeps(lookup, logger), asked, lines };
}

describe('runLookupStock', () => {
  it('completes with the branch figures, over-allocation as 0, and the covering branch', async () => {
    const { deps: d, asked } = deps(() => item);
    const outcome = await runLookupStock(
      d,
      { item_code: ' WIDGET-9 ', quantity: 50, branch: 'per' },
      'workflow:Fn0001',
    );
    expect(outcome).toEqual({
      ok: true,
      outputs: {
        available: 0,
        on_order: 7,
        can_supply: false,
        split_possible: true,
        description: 'Blue Steel Widget',
        summary: expect.stringMatching(
          /^No, 50 of WIDGET-9 at Perth: Perth has 0 free.*Sydney could/,
        ),
      },
    });
    expect(asked).toEqual([{ requester: 'workflow:Fn0001' }]);
  });

  it('says yes for any stock when no quantity is given', async () => {
    const { deps: d } = deps(() => item);
    const outcome = await runLookupStock(d, { item_code: 'WIDGET-9', quantity: null }, 'w');
    expect(outcome).toMatchObject({ ok: true, outputs: { can_supply: true } });
  });

  it.each([
    [
      'a busy budget past its wait',
      new BusyError('getItem', 42_000),
      /^Lots of lookups right now; the step can be run again in about 42 s\.$/,
    ],
    [
      'an ERP failure',
      new ServerError('HTTP 503 from getItem', { endpoint: 'getItem', statusCode: 503 }),
      /^The ERP is not answering; the step can be run again in a minute\.$/,
    ],
    [
      'an ERP that says it is rate-limited',
      new RateLimitedError('HTTP 429 from getItem', { endpoint: 'getItem', retryAfterMs: 20_000 }),
      /^The ERP is busy \(too many requests\); the step can be run again in about 20 s\.$/,
    ],
    [
      'unexpected ERP data',
      new UnexpectedDataError('bad body at soh', { endpoint: 'getItem' }),
      /^The ERP returned unexpected data/,
    ],
    ['a bug of ours', new TypeError('x is undefined'), /^Something went wrong on our side/],
  ])('fails %s with a plain sentence and no internals', async (_name, error, sentence) => {
    const { deps: d } = deps(() => error);
    const outcome = await runLookupStock(d, { item_code: 'WIDGET-9' }, 'w');
    expect(outcome.ok).toBe(false);
    const text = outcome.ok ? '' : outcome.error;
    expect(text).toMatch(sentence);
    expect(text).not.toMatch(/503|soh|undefined|getItem|Error/);
  });
});

describe('parseStepInputs', () => {
  it.each([
    [{}, 'item_code_missing'],
    [{ item_code: '   ' }, 'item_code_missing'],
    [{ item_code: 'TWO CODES' }, 'item_code_invalid'],
    [{ item_code: 'X'.repeat(101) }, 'item_code_invalid'],
    [{ item_code: 'W', quantity: -1 }, 'quantity_invalid'],
    [{ item_code: 'W', quantity: 1.5 }, 'quantity_invalid'],
    [{ item_code: 'W', quantity: 'lots' }, 'quantity_invalid'],
    [{ item_code: 'W', branch: 'b'.repeat(101) }, 'branch_invalid'],
    [{ item_code: 'W', branch: 7 }, 'branch_invalid'],
    ['not an object', 'item_code_missing'],
  ])('refuses %j as %s', (inputs, problem) => {
    expect(parseStepInputs(inputs)).toEqual({ ok: false, problem });
  });

  it('reads unset optional inputs as absent and numeric text as a quantity', () => {
    expect(parseStepInputs({ item_code: 'W\u200b-9', quantity: '', branch: null })).toEqual({
      ok: true,
      inputs: { item_code: 'W-9' },
    });
    expect(parseStepInputs({ item_code: 1234, quantity: ' 50 ' })).toEqual({
      ok: true,
      inputs: { item_code: '1234', quantity: 50 },
    });
  });
});

describe('stepRequester', () => {
  it('is one requester per step when no person is named, whatever the event carries', () => {
    expect(stepRequester({ function: { id: 'Fn0001' } })).toBe('workflow:Fn0001');
    expect(stepRequester({ function: { id: '<@U1>' } })).toBe('workflow:lookup_stock');
    expect(stepRequester(undefined)).toBe('workflow:lookup_stock');
    expect(stepRequester({ function: { id: 'Fn0001' } }, { item_code: 'W' })).toBe(
      'workflow:Fn0001',
    );
  });

  it('is the step’s requester, with the person named in requested_by as its member', () => {
    const event = { function: { id: 'Fn0001' } };
    expect(stepRequester(event, { item_code: 'W', requested_by: 'U0ALICE01' })).toBe(
      groupMember('workflow:Fn0001', 'U0ALICE01'),
    );
    expect(stepRequester(event, { requested_by: 'W0GRID001' })).toBe(
      groupMember('workflow:Fn0001', 'W0GRID001'),
    );
  });

  it('is what the listener draws budget as, from the run’s own inputs', async () => {
    const { deps: d, asked } = deps(() => item);
    const completed: unknown[] = [];
    const complete = async (args: unknown) => {
      completed.push(args);
      return { ok: true };
    };
    const client = { functions: { completeSuccess: complete, completeError: complete } };
    await lookupStockStep(d)({
      event: { function: { id: 'Fn0001' } },
      inputs: { item_code: 'WIDGET-9', requested_by: 'U0ALICE01' },
      client,
      context: { functionExecutionId: 'Fx0001' },
    } as never);
    expect(asked).toEqual([{ requester: groupMember('workflow:Fn0001', 'U0ALICE01') }]);
    expect(completed).toHaveLength(1);
  });

  it('ignores a requested_by not shaped like a person', () => {
    const event = { function: { id: 'Fn0001' } };
    for (const requested_by of ['', null, 'C0CHANNEL', 'U1> <!channel>', 42, '../x']) {
      expect(stepRequester(event, { requested_by })).toBe('workflow:Fn0001');
    }
  });
});
