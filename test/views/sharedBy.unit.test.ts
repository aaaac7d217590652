import { describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { itemCard } from '../../src/views/itemCard.js';
import {
  alreadyShared,
  decodeSharedRemove,
  removeRefusal,
  removeStale,
  SHARED_REMOVE_ACTION,
  shareRemoved,
  withSharedBy,
} from '../../src/views/sharedBy.js';
import { makeFreshness, makeItem, TEST_NOW } from '../helpers/builders.js';
import { allText, buttons } from './inspect.js';

const SHARE_ID = 'AbCdEfGhIjKlMnOpQrSt_-';

const shared = () =>
  itemCard({ item: makeItem(), freshness: makeFreshness(), now: TEST_NOW, shared: true });

describe('withSharedBy', () => {
  it('says who shared it first, and ends with a Remove that names the share only', () => {
    const message = withSharedBy(shared(), 'U123ABC', SHARE_ID);
    expect(message.blocks[0]).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Shared by <@U123ABC>', verbatim: true }],
    });
    const remove = buttons(message).find((b) => b.actionId === SHARED_REMOVE_ACTION);
    expect(remove?.label).toBe('Remove');
    expect(remove?.state).toEqual({ v: 1, t: 'rm', s: SHARE_ID });
    expect(decodeSharedRemove(JSON.stringify(remove?.state))).toEqual({
      kind: 'share',
      shareId: SHARE_ID,
    });
    expect(message.text).toMatch(/^Shared by <@U123ABC>: WIDGET-9/);
    expect(checkMessageLimits(message)).toEqual([]);
  });

  it('leaves the message alone for an id Slack would not send, or a share id not of its making', () => {
    const card = shared();
    expect(withSharedBy(card, '<!channel>', SHARE_ID)).toBe(card);
    expect(withSharedBy(card, 'U123ABC', 'U123ABC')).toBe(card);
  });

  it('refuses forged or odd Remove values', () => {
    for (const value of [
      undefined,
      '',
      '{}',
      '{"v":1,"t":"rm","u":"<!here>"}',
      '{"v":1,"t":"rm","s":"../../etc"}',
      '{"v":1,"t":"rm","s":"AbCdEfGhIjKlMnOpQrSt_-","u":"U123ABC"}',
      'x'.repeat(3000),
    ]) {
      expect(decodeSharedRemove(value)).toBeUndefined();
    }
  });

  it('reads a Remove value of the old format as old, to be refused as stale', () => {
    expect(decodeSharedRemove('{"v":1,"t":"rm","u":"U123ABC"}')).toEqual({
      kind: 'old',
      sharerId: 'U123ABC',
    });
    expect(allText(removeStale('U123ABC'))).toContain('older version');
  });

  it('tells anyone else privately who can remove it', () => {
    expect(allText(removeRefusal('U123ABC'))).toContain('Only <@U123ABC> can remove this message.');
    expect(allText(removeRefusal('nope'))).toContain('Only the person who shared it can');
  });

  it('names the conversation in the removal and the repeat notices, by id shape only', () => {
    expect(shareRemoved('C0FAKE01').text).toBe('Removed what you shared to <#C0FAKE01>.');
    expect(shareRemoved('<!channel>').text).toBe('Removed what you shared to the channel.');
    // The first press may still be under way or fail: the repeat never claims it was shared.
    expect(alreadyShared('C0FAKE01').text).toContain('shares it to <#C0FAKE01>');
    expect(alreadyShared('C0FAKE01').text).not.toMatch(/already shared/i);
    expect(alreadyShared('me').text).toContain('did not send it again');
    expect(alreadyShared('me').text).not.toMatch(/already sent/i);
  });
});
