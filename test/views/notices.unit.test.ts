import { describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { noticeMessage, withNotices } from '../../src/views/feedback.js';

describe('withNotices', () => {
  it('leaves a message alone without notices', () => {
    const message = noticeMessage('hello');
    expect(withNotices(message, [])).toBe(message);
  });

  it('puts escaped notices above the message, in blocks and fallback text', () => {
    const message = withNotices(noticeMessage('the answer'), ['You typed <!channel> & more']);
    expect(message.blocks[0]).toMatchObject({ type: 'context' });
    const all = JSON.stringify(message);
    expect(all).not.toContain('<!channel>');
    expect(all).toContain('&lt;!channel&gt; &amp; more');
    expect(message.text).toContain('the answer');
  });

  it('keeps a full message within Slack limits', () => {
    const full = {
      text: 'x',
      blocks: Array.from({ length: 50 }, () => ({ type: 'divider' as const })),
    };
    const message = withNotices(full, ['n'.repeat(5000), 'm'.repeat(5000)]);
    expect(message.blocks).toHaveLength(50);
    expect(checkMessageLimits(message)).toEqual([]);
  });
});
