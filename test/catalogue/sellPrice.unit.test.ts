import { describe, expect, it } from 'vitest';
import { sellPriceLookup } from '../../src/catalogue/sellPrice.js';
import type { ItemSearchParams } from '../../src/erp/schemas.js';

const row = (code: string, price: number) => ({ code, price }) as never;

function rig(room: { wait: number; users: boolean }) {
  const asked: ItemSearchParams[] = [];
  const erp = {
    searchItems: async (params: ItemSearchParams) => {
      asked.push(params);
      return { items: [row('WIDGET-90', 9), row('WIDGET-9', 12.5)] } as never;
    },
  };
  const budget = {
    waitMs: () => room.wait,
    usersWaiting: () => room.users,
    run: <T>(call: (signal: AbortSignal) => Promise<T>) => call(new AbortController().signal),
  };
  let now = 1_000;
  const clock = { tick: (ms: number) => (now += ms) };
  return { asked, price: sellPriceLookup(erp, budget, { now: () => now }), clock };
}

describe('a card sell price by one search', () => {
  it('is the exact code row price, asked once for a while', async () => {
    const { asked, price, clock } = rig({ wait: 0, users: false });
    expect(await price('widget-9')).toBe(12.5);
    expect(await price('WIDGET-9')).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(asked[0]?.keywords).toEqual(['widget-9']);
    clock.tick(10 * 60_000 + 1);
    expect(await price('WIDGET-9')).toBe(12.5);
    expect(asked).toHaveLength(2);
  });

  it('spends nothing while the search lane has no room or a person waits', async () => {
    const full = rig({ wait: 500, users: false });
    expect(await full.price('WIDGET-9')).toBeUndefined();
    const waiting = rig({ wait: 0, users: true });
    expect(await waiting.price('WIDGET-9')).toBeUndefined();
    expect([...full.asked, ...waiting.asked]).toEqual([]);
  });
});
