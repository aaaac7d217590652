import { describe, expect, it } from 'vitest';
import { itemCard } from '../../src/views/itemCard.js';
import { checkMessageLimits } from '../../src/views/limits.js';
import {
  decodeSharedRemove,
  removeRefusal,
  SHARED_REMOVE_ACTION,
  withSharedBy,
} from '../../src/views/sharedBy.js';
import { makeFreshness, makeItem, TEST_NOW } from '../helpers/builders.js';
import { allText, buttons } from './inspect.js';

const shared = () =>
  itemCard({ item: makeItem(), freshness: makeFreshness(), now: TEST_NOW, shared: true });

describe('withSharedBy', () => {
  it('says who shared it first, and ends with a Remove only they can use', () => {
    const message = withSharedBy(shared(), 'U123ABC');
    expect(message.blocks[0]).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Shared by <@U123ABC>', verbatim: true }],
    });
    const remove = buttons(message).find((b) => b.actionId === SHARED_REMOVE_ACTION);
    expect(remove?.label).toBe('Remove');
    expect(decodeSharedRemove(JSON.stringify(remove?.state))).toEqual({
      v: 1,
      t: 'rm',
      u: 'U123ABC',
    });
    expect(message.text).toMatch(/^Shared by <@U123ABC>: WIDGET-9/);
    expect(checkMessageLimits(message)).toEqual([]);
  });

  it('leaves the message alone for an id Slack would not send', () => {
    const card = shared();
    expect(withSharedBy(card, '<!channel>')).toBe(card);
  });

  it('refuses forged or odd Remove values', () => {
    for (const value of [undefined, '', '{}', '{"v":1,"t":"rm","u":"<!here>"}', 'x'.repeat(3000)]) {
      expect(decodeSharedRemove(value)).toBeUndefined();
    }
  });

  it('tells anyone else privately who can remove it', () => {
    expect(allText(removeRefusal('U123ABC'))).toContain('Only <@U123ABC> can remove this message.');
    expect(allText(removeRefusal('nope'))).toContain('Only the person who shared it can');
  });
});
