/**
 * The body cap (guard.ts, 1.5 MiB) against the largest requests Slack sends this app. A view
 * submission carries the app's own modal back, so the search modal holding the largest item
 * card the views can build (every string long and escaped), with every category option, is
 * measured as Slack would send it (form-encoded JSON, the view echoed with its state). The
 * largest of all is the message shortcut on a message of Slack's 40,000 characters, which
 * carries the text twice (`text` and the rich-text `blocks`), measured with the characters
 * that cost the most on the wire.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/slack/transport/guard.js';
import { itemCard } from '../../src/views/itemCard.js';
import { searchModal } from '../../src/views/searchModal.js';
import { watchModal } from '../../src/views/watchModal.js';
import { makeBranch, makeFreshness, makeItem, TEST_NOW } from '../helpers/builders.js';
import { messageShortcutPayload } from '../helpers/slack/index.js';

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

/** Slack's longest message, in characters. */
const MAX_MESSAGE_CHARACTERS = 40_000;

/** A message shortcut on a message of `text`, with the rich-text blocks Slack adds. */
function shortcutOn(text: string): object {
  const payload = messageShortcutPayload({
    callbackId: 'stock_lookup_message',
    messageText: text,
    responseUrl: `https://hooks.slack.com/app/T0123456789/${'1'.repeat(13)}/${'x'.repeat(24)}`,
  }) as { message: object };
  return {
    ...payload,
    message: {
      ...payload.message,
      client_msg_id: '0123abcd-0123-4567-89ab-0123456789ab',
      team: 'T0123456789',
      blocks: [
        {
          type: 'rich_text',
          block_id: 'AbC12',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }],
        },
      ],
    },
  };
}

/**
 * The form Slack posts, written as the most expensive JSON Slack could: every non-ASCII
 * UTF-16 unit as a `\uXXXX` escape and `/` as `\/` (both are valid JSON, and some servers
 * write them), then url-encoded (`\` is `%5C`).
 */
function escapedFormBytes(payload: object): number {
  const json = JSON.stringify(payload)
    .replace(/[\u007f-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
  return Buffer.byteLength(new URLSearchParams({ payload: json }).toString());
}

/** The form as Slack posts it with raw UTF-8 (`%E4%B8%AD`, 9 bytes a CJK character). */
function rawFormBytes(payload: object): number {
  return Buffer.byteLength(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
}

describe('the body cap against the message shortcut on the longest message', () => {
  // A character outside the BMP: one character to Slack, two UTF-16 units, 16 bytes escaped.
  const astral = '\u{1D400}';
  it('40,000 characters outside the BMP, escaped, fit (about 1.3 MB)', () => {
    const bytes = escapedFormBytes(shortcutOn(astral.repeat(MAX_MESSAGE_CHARACTERS)));
    expect(bytes).toBeGreaterThan(1_280_000);
    expect(bytes).toBeLessThan(MAX_BODY_BYTES);
  });

  it('40,000 CJK characters sent raw fit (about 720 KB), and so does every costly ASCII one', () => {
    expect(rawFormBytes(shortcutOn('中'.repeat(MAX_MESSAGE_CHARACTERS)))).toBeLessThan(
      MAX_BODY_BYTES,
    );
    // `"` is `\"` in JSON, `%5C%22` in the form: 6 bytes.
    expect(escapedFormBytes(shortcutOn('"'.repeat(MAX_MESSAGE_CHARACTERS)))).toBeLessThan(
      MAX_BODY_BYTES,
    );
  });

  it('the cap is not far above the worst case: what Slack never sends is still refused', () => {
    const worst = escapedFormBytes(shortcutOn(astral.repeat(MAX_MESSAGE_CHARACTERS)));
    // Room for the payload's own fields and a few attachments, not for a second message.
    expect(MAX_BODY_BYTES - worst).toBeLessThan(worst / 4);
  });
});
