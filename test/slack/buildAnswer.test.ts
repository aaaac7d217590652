/**
 * The build check's answer over a lookup service whose answers the test releases one by one:
 * what is cached answers at once, the components are fetched one at a time (one place in the
 * fair queue), and the same message is updated a few times until every component is checked.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/erp/errors.js';
import type { ErpRef, Item } from '../../src/erp/schemas.js';
import { createLogger } from '../../src/log/logger.js';
import type { Fetched, LookupService } from '../../src/lookup/types.js';
import { buildAnswer } from '../../src/slack/buildAnswer.js';
import type { SlackMessage } from '../../src/views/message.js';
import { textOf } from '../helpers/blocks.js';
import { makeBomComponent, makeBranch, makeFreshness, makeItem } from '../helpers/builders.js';
import { eventually } from '../helpers/eventually.js';

const logger = createLogger({ level: 'silent' });
const actor = { userId: 'U1', teamId: 'T1', channelId: 'C1' };

const component = (code: string, free: number) =>
  makeItem({
    code,
    soh: free,
    allocated: 0,
    branches: [makeBranch({ id: 1, name: 'Perth', soh: free, allocated: 0 })],
  });

function rig(componentCount: number, cached: number) {
  const codes = Array.from({ length: componentCount }, (_, i) => `PART-${i + 1}`);
  const top = makeItem({
    code: 'PLANT-8',
    branches: [makeBranch({ id: 1, name: 'Perth' }), makeBranch({ id: 2, name: 'Sydney' })],
    bom: codes.map((code) => makeBomComponent({ code, qty: 1 })),
  });
  const records = new Map<string, Item>(codes.map((code) => [code, component(code, 5)]));
  records.set('PART-2', component('PART-2', 1));
  const inFlight: Array<{ code: string; release: () => void }> = [];
  let mostAtOnce = 0;
  const fetched = (data: Item): Fetched<Item> => ({ data, freshness: makeFreshness() });
  const lookup = {
    getItem: (ref: ErpRef) => {
      const code = 'code' in ref ? ref.code : '';
      if (code === top.code) return Promise.resolve(fetched(top));
      return new Promise<Fetched<Item>>((resolve, reject) => {
        inFlight.push({
          code,
          release: () => {
            const record = records.get(code);
            if (record === undefined)
              reject(new NotFoundError('no such item', { endpoint: 'getItem', statusCode: 404 }));
            else resolve(fetched(record));
          },
        });
        mostAtOnce = Math.max(mostAtOnce, inFlight.length);
      });
    },
    peekItem: (ref: ErpRef) => {
      const code = 'code' in ref ? ref.code : '';
      const index = codes.indexOf(code);
      const record = records.get(code);
      return index >= 0 && index < cached && record ? fetched(record) : undefined;
    },
  } as unknown as LookupService;
  const release = () => {
    const next = inFlight.shift();
    if (!next) throw new Error('nothing in flight');
    next.release();
  };
  return { lookup, release, inFlight, mostAtOnce: () => mostAtOnce, codes, records };
}

describe('the build check answer', () => {
  it('answers at once with what is cached, then updates the same message until done', async () => {
    const r = rig(9, 3);
    const updates: SlackMessage[] = [];
    const first = await buildAnswer(
      { lookup: r.lookup, logger },
      { code: 'PLANT-8', quantity: 2, branchWords: ['perth'] },
      actor,
      async (message) => {
        updates.push(message);
      },
    );
    // PART-2 has 1 free at Perth, and it is among the three cached.
    expect(first.text).toMatch(/^No: short PART-2 \(need 2, 1 free at Perth\) \(checked 3 of 9\)/);
    expect(textOf(first)).toContain('Checked 3 of 9 components');
    for (let i = 0; i < 6; i += 1) {
      await eventually(() => expect(r.inFlight).toHaveLength(1));
      r.release();
    }
    await eventually(() => expect(updates.at(-1)?.text).not.toContain('checked'));
    // One component in flight at a time: one place in the fair queue.
    expect(r.mostAtOnce()).toBe(1);
    // At most two progress updates and the final one: within a response_url's five uses.
    expect(updates.length).toBeLessThanOrEqual(3);
    expect(updates.slice(0, -1).every((u) => /checked \d of 9/.test(u.text))).toBe(true);
    expect(updates.at(-1)?.text).toBe('No: short PART-2 (need 2, 1 free at Perth)');
  });

  it('all cached: one complete answer, no update; a missing component is named', async () => {
    const r = rig(3, 3);
    const updates: SlackMessage[] = [];
    const answer = await buildAnswer(
      { lookup: r.lookup, logger },
      { code: 'PLANT-8', quantity: 1, branchWords: [] },
      actor,
      async (message) => {
        updates.push(message);
      },
    );
    expect(answer.text).toBe('Yes, enough for 1: 1 of PLANT-8 from its 3 components');
    expect(updates).toEqual([]);
    r.records.delete('PART-3');
    const missing = buildAnswer(
      { lookup: { ...r.lookup, peekItem: () => undefined } as LookupService, logger },
      { code: 'PLANT-8', quantity: 1, branchWords: [] },
      actor,
    );
    for (let i = 0; i < 3; i += 1) {
      await eventually(() => expect(r.inFlight).toHaveLength(1));
      r.release();
    }
    expect(textOf(await missing)).toContain('Not in the ERP: PART-3');
  });

  it('a branch the item does not have is said, never checked company-wide', async () => {
    const r = rig(2, 2);
    const answer = await buildAnswer(
      { lookup: r.lookup, logger },
      { code: 'PLANT-8', quantity: 1, branchWords: ['hobart'] },
      actor,
    );
    expect(answer.text).toContain('“hobart”: not a branch here (Perth, Sydney)');
  });
});
