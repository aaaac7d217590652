/**
 * The body cap (guard.ts, 64 KiB) against the largest request Slack sends this app: a view
 * submission carries the app's own modal back, so the search modal holding the largest item
 * card the views can build (every string long and escaped), with every category option, is
 * measured as Slack would send it (form-encoded JSON, the view echoed with its state).
 */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/slack/transport/guard.js';
import { itemCard } from '../../src/views/itemCard.js';
import { searchModal } from '../../src/views/searchModal.js';
import { watchModal } from '../../src/views/watchModal.js';
import { makeBranch, makeFreshness, makeItem, TEST_NOW } from '../helpers/builders.js';

/** A view_submission as Slack posts it: `payload=` and the URL-encoded JSON. */
function submissionBytes(view: object): number {
  const payload = {
    type: 'view_submission',
    team: { id: 'T0123456789', domain: 'acme-corporation' },
    user: {
      id: 'U0123456789',
      username: 'someone.long',
      name: 'someone.long',
      team_id: 'T0123456789',
    },
    api_app_id: 'A0123456789',
    token: 'x'.repeat(24),
    trigger_id: '1234567890123.1234567890123.0123456789abcdef0123456789abcdef',
    // Slack echoes the view with its own fields, and the state of every input.
    view: {
      ...view,
      id: 'V0123456789',
      team_id: 'T0123456789',
      state: {
        values: {
          a: {
            b: {
              type: 'external_select',
              selected_option: {
                text: { type: 'plain_text', text: 'x'.repeat(75) },
                value: 'x'.repeat(150),
              },
            },
          },
        },
      },
      hash: '1234567890.abcdefgh',
      app_id: 'A0123456789',
      root_view_id: 'V0123456789',
      bot_id: 'B0123456789',
    },
    response_urls: [
      {
        block_id: 'share',
        action_id: 'share',
        channel_id: 'C0123456789',
        response_url: `https://hooks.slack.com/app/T0123456789/${'1'.repeat(13)}/${'x'.repeat(24)}`,
      },
    ],
  };
  return Buffer.byteLength(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
}

const long = (tag: string, n: number) =>
  `${tag} ${'Heavy-duty stainless & zinc "fitting"'.repeat(n)}`;

describe('the body cap against the largest view submission', () => {
  it('a search modal with a long real-looking card and every category fits (about 32 KB)', () => {
    const item = makeItem({
      description: long('d', 8),
      branches: Array.from({ length: 40 }, (_, i) => makeBranch({ id: i, name: long(`b${i}`, 1) })),
    });
    const card = itemCard({ item, freshness: makeFreshness(), now: TEST_NOW });
    const view = searchModal({
      categories: Array.from({ length: 99 }, (_, i) => ({
        id: i + 1,
        name: long(`c${i}`, 2),
        count: 1,
      })) as never,
      countsComplete: true,
      metadata: { code: item.code } as never,
      card,
      sandbox: false,
    });
    const bytes = submissionBytes(view);
    expect(bytes).toBeLessThan(MAX_BODY_BYTES);
  });

  it('a watch modal with a hundred branches fits (about 39 KB)', () => {
    const view = watchModal({
      state: { c: 'WIDGET-9' } as never,
      description: long('d', 8),
      branches: Array.from({ length: 100 }, (_, i) => long(`b${i}`, 2).slice(0, 75)),
    });
    const bytes = submissionBytes(view);
    expect(bytes).toBeLessThan(MAX_BODY_BYTES);
  });
});
