/**
 * The fallback `text` is mrkdwn as the blocks are: Slack notifies for `<!here>` in it. Each
 * words view escapes what a person typed or the ERP sent in its fallback too, once; the
 * message as it leaves the app (`outgoing`) escapes whatever markup is not the app's own;
 * the workflow step's outputs and errors carry no markup at all.
 */
import { describe, expect, it } from 'vitest';
import { stockVerdict } from '../../src/rules/stock.js';
import { errorMessage, noticeMessage, withNotices } from '../../src/views/feedback.js';
import { outgoing, safeFallback } from '../../src/views/format.js';
import type { SlackMessage } from '../../src/views/message.js';
import {
  accountOnlyCard,
  notSureMessage,
  notUnderstoodMessage,
  watchProposal,
} from '../../src/views/words.js';
import {
  stepErrorText,
  stepOutputs,
  stepUnknownBranchText,
  stepUnknownItemText,
} from '../../src/views/workflowStep.js';
import { makeBranch, makeContact, makeFreshness, makeItem } from '../helpers/builders.js';
import { foreignMarkup, mrkdwnTexts } from './inspect.js';

const EVIL = ['<!here>', '<!channel>', '<!everyone>', '<@U0SOMEONE>', '<https://evil.example|x>'];

function wordsViews(evil: string): Array<[string, SlackMessage]> {
  const candidates = [{ code: `${evil}-1`, description: `promo ${evil}` }];
  return [
    [
      'not sure, several items',
      notSureMessage({
        reason: 'several_items',
        typed: `promo ${evil}`,
        candidates,
        total: 9,
        branchWords: [evil],
      }),
    ],
    [
      'not sure, near codes',
      notSureMessage({ reason: 'near_codes', typed: evil, candidates, branchWords: [] }),
    ],
    ['not understood', notUnderstoodMessage('no_item', ['promo', evil])],
    [
      'watch proposal',
      watchProposal({ code: evil, direction: 'below', threshold: 5, branchWords: [evil] }),
    ],
    [
      'account only',
      accountOnlyCard({
        contact: makeContact({ code: evil, company: evil, account_type: evil, status_label: evil }),
        freshness: makeFreshness(),
      }),
    ],
    ['notice', noticeMessage(`No item ${evil}`)],
    ['error', errorMessage(new Error(evil), { what: evil })],
    ['with notices', withNotices(noticeMessage('x'), [evil])],
  ];
}

describe('the words views escape their fallback as their blocks', () => {
  it.each(EVIL)('%s is never live markup in text or blocks', (evil) => {
    for (const [name, message] of wordsViews(evil)) {
      for (const text of [message.text, ...mrkdwnTexts(message)]) {
        expect(foreignMarkup(text), `${name}: ${text}`).toEqual([]);
      }
    }
  });

  it('escapes once: what was typed as `&lt;` is shown as typed', () => {
    const message = notUnderstoodMessage('no_item', ['promo', '&lt;!here&gt;']);
    expect(message.text).toContain('“promo &amp;lt;!here&amp;gt;”');
    expect(mrkdwnTexts(message)[0]).toContain('“promo &amp;lt;!here&amp;gt;”');
    expect(mrkdwnTexts(message)[0]).not.toContain('&amp;amp;');
  });
});

describe('a message as it leaves the app', () => {
  it("escapes markup that is not the app's own, and keeps what is", () => {
    expect(safeFallback('Did you mean <!here>-1 or <https://x|y>?')).toBe(
      'Did you mean &lt;!here&gt;-1 or &lt;https://x|y&gt;?',
    );
    expect(safeFallback('a < b > c')).toBe('a &lt; b &gt; c');
    const own =
      '<@U0PURCH01> <!subteam^S0GROUP01> in <#C0CHANNEL1> at <!date^1764000000^{date_short_pretty} at {time}|25 Nov 2025 at 08:00 UTC>';
    expect(safeFallback(own)).toBe(own);
  });

  it('leaves text the views escaped unchanged, and the blocks as drawn', () => {
    const message = notSureMessage({
      reason: 'near_codes',
      typed: '<!here>',
      candidates: [{ code: '<!here>-1', description: 'A & B' }],
      branchWords: [],
    });
    expect(outgoing(message)).toEqual(message);
    const missed = { text: 'Several items match <!channel>', blocks: message.blocks };
    expect(outgoing(missed).text).toBe('Several items match &lt;!channel&gt;');
    expect(outgoing(missed).blocks).toBe(message.blocks);
  });
});

describe('the workflow step', () => {
  const item = makeItem({
    code: 'W-1',
    description: '<!channel> promo <https://evil.example|click> <@U0SOMEONE>',
    branches: [makeBranch({ id: 1, name: '<!here> Perth', soh: 10 })],
  });

  it('puts no markup in its outputs or its errors', () => {
    const outputs = stepOutputs(stockVerdict(item, { quantity: 2, branchWords: ['perth'] }), false);
    const texts = [
      outputs.description,
      outputs.summary,
      stepUnknownItemText('<!here>'),
      stepUnknownBranchText('<!here>', '<!channel>', ['<@U1>']),
      stepErrorText(new Error('<!channel>')),
    ];
    for (const text of texts) expect(text, text).not.toMatch(/[<>]/);
    expect(outputs.description).toContain('‹!channel› promo');
  });
});
