import { describe, expect, it } from 'vitest';
import { FIND_CONTACT, findContactModal, sharingModal } from '../../src/views/findContactModal.js';

describe('findContactModal', () => {
  it('is one text field searched on submit, within Slack’s modal limits', () => {
    const view = findContactModal({ initial: '  acme  ' });
    expect(view.callback_id).toBe(FIND_CONTACT.callbackId);
    expect(view.submit?.text).toBe('Find');
    const input = view.blocks[0];
    expect(input).toMatchObject({
      type: 'input',
      block_id: FIND_CONTACT.textBlock,
      element: {
        type: 'plain_text_input',
        action_id: FIND_CONTACT.textAction,
        initial_value: 'acme',
      },
    });
    // No dispatch_action: nothing is searched while typing.
    expect(JSON.stringify(view)).not.toContain('dispatch_action');
    for (const text of [view.title.text, view.submit?.text ?? '', view.close?.text ?? '']) {
      expect(text.length).toBeLessThanOrEqual(24);
    }
  });
});

describe('sharingModal', () => {
  it('says what is being shared, where, escaped', () => {
    const view = sharingModal({ code: '<!here>', where: 'channel' });
    expect(JSON.stringify(view.blocks)).toContain('Sharing &lt;!here&gt; to the conversation');
    expect(view.submit).toBeUndefined();
  });
});
