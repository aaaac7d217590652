import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../src/console/render.js';

const plain = (blocks: unknown[], width?: number) =>
  renderMessage({ text: 'fallback', blocks }, { color: false, ...(width ? { width } : {}) });

const mrkdwn = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const button = (text: string, action_id: string, value?: string, style?: string) => ({
  type: 'button',
  text: { type: 'plain_text', text },
  action_id,
  ...(value === undefined ? {} : { value }),
  ...(style === undefined ? {} : { style }),
});

describe('renderMessage without colour', () => {
  it('shows a text-only message as mrkdwn', () => {
    const result = renderMessage({ text: '*Hi* &lt;there&gt;' }, { color: false });
    expect(result).toEqual({ text: 'Hi <there>', buttons: [] });
  });

  it('underlines a header', () => {
    const { text } = plain([{ type: 'header', text: { type: 'plain_text', text: 'WIDGET-9' } }]);
    expect(text).toBe('WIDGET-9\n────────');
  });

  it('makes mrkdwn readable: bold, italic, strike, code, entities, links, mentions', () => {
    const { text } = plain([
      mrkdwn(
        '*Status:* _Disabled_ ~old~ `A_B*C` &lt;!channel&gt; &amp;lt; <https://erp.example/a_b|the ERP> <https://x.example> <@U123> <#C42|sales> <!here> snake_case_name 2*3*4',
      ),
    ]);
    // Wrapped at 80 columns, at a space.
    expect(text.replaceAll('\n', ' ')).toBe(
      'Status: Disabled old `A_B*C` <!channel> &lt; the ERP (https://erp.example/a_b) https://x.example @U123 #sales @here snake_case_name 2*3*4',
    );
  });

  it('treats *`code`* as bold code, as Slack does, and leaves `<url>` inside code alone', () => {
    expect(plain([mrkdwn('Path: `WIDGET-9` › *`WIDGET-9-CORE`* `<not a link>`')]).text).toBe(
      'Path: `WIDGET-9` › `WIDGET-9-CORE` `<not a link>`',
    );
    const colored = renderMessage({ text: '*`X-1`*' }, { color: true }).text;
    expect(colored).toBe('\u001b[1m\u001b[35m`X-1`\u001b[39m\u001b[22m');
  });

  it('shows <!date…> tokens as local time, falling back when the timestamp is not a number', () => {
    const seconds = 1_700_000_000;
    const { text } = plain([
      mrkdwn(`as of <!date^${seconds}^{time} on {date_num}|fallback> · <!date^oops^{time}|10:42>`),
    ]);
    const date = new Date(seconds * 1000);
    expect(text).toBe(`as of ${format(date, 'HH:mm')} on ${format(date, 'yyyy-MM-dd')} · 10:42`);
  });

  it('relative date tokens use the given clock', () => {
    const now = new Date(2026, 0, 15, 12, 0, 0);
    const seconds = Math.floor(now.getTime() / 1000) - 180;
    const { text } = renderMessage(
      { blocks: [mrkdwn(`<!date^${seconds}^{date_pretty}, {ago}|x>`)] },
      { color: false, now },
    );
    expect(text).toBe('today, 3 minutes ago');
  });

  it('keeps code fences verbatim and on their own lines, so columns stay aligned', () => {
    const { text } = plain([mrkdwn('BOM:\n```CODE     QTY\nA-1        2\nBB-22     10```\nend')]);
    expect(text).toBe('BOM:\nCODE     QTY\nA-1        2\nBB-22     10\nend');
  });

  it('lays out section fields two per row in equal columns, as Slack does', () => {
    const { text } = plain(
      [
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*On hand*\n120' },
            { type: 'mrkdwn', text: '*Allocated*\n20' },
            { type: 'mrkdwn', text: '*Available to promise*\n100' },
            { type: 'plain_text', text: 'On order: 5' },
            { type: 'mrkdwn', text: '*Odd one*' },
          ],
        },
      ],
      49,
    );
    // 49 columns: the left column is 23 wide, then a gap of 3.
    expect(text.split('\n')).toEqual([
      'On hand                   Allocated',
      '120                       20',
      'Available to promise      On order: 5',
      '100',
      'Odd one',
    ]);
  });

  it('wraps a left field wider than half the terminal so the right column stays put', () => {
    const { text } = plain(
      [
        {
          type: 'section',
          fields: [
            { type: 'plain_text', text: 'a very long left field that keeps going' },
            { type: 'plain_text', text: 'right' },
          ],
        },
      ],
      40,
    );
    const lines = text.split('\n');
    // Half of 40 columns, less the gap: the left column is 18 wide, the right starts at 21.
    expect(lines[0]).toMatch(/^a very long left\s+right$/);
    expect(lines[0]?.indexOf('right')).toBe(21);
    expect(lines.slice(1).map((line) => line.trim())).toEqual(['field that keeps', 'going']);
  });

  it('numbers buttons across the message: accessory first, then actions', () => {
    const result = plain([
      {
        type: 'section',
        block_id: 'row_1',
        text: { type: 'mrkdwn', text: '*WIDGET-9* Blue widget' },
        accessory: button('View', 'stock_view:0', '{"v":1}'),
      },
      {
        type: 'actions',
        block_id: 'nav',
        elements: [
          button('‹ Previous', 'stock_prev_page', 'p'),
          button('Next ›', 'stock_next_page', 'n', 'primary'),
        ],
      },
    ]);
    expect(result.text).toBe('WIDGET-9 Blue widget  [1] View\n[2] ‹ Previous  [3] Next ›');
    expect(result.buttons).toEqual([
      { number: 1, label: 'View', actionId: 'stock_view:0', value: '{"v":1}', blockId: 'row_1' },
      { number: 2, label: '‹ Previous', actionId: 'stock_prev_page', value: 'p', blockId: 'nav' },
      { number: 3, label: 'Next ›', actionId: 'stock_next_page', value: 'n', blockId: 'nav' },
    ]);
  });

  it('shows a URL button’s link and menus that cannot be pressed here', () => {
    const result = plain([
      {
        type: 'actions',
        elements: [
          { ...button('Open', 'open'), url: 'https://erp.example/item/9' },
          { type: 'overflow', action_id: 'more', options: [] },
        ],
      },
    ]);
    expect(result.text).toBe(
      '[1] Open (https://erp.example/item/9)  [overflow not available in the console]',
    );
    expect(result.buttons).toHaveLength(1);
  });

  it('renders context elements on one line, images by their alt text', () => {
    const { text } = plain([
      {
        type: 'context',
        elements: [
          { type: 'image', image_url: 'https://x/i.png', alt_text: 'cache' },
          { type: 'mrkdwn', text: 'from _cache_' },
          { type: 'plain_text', text: '3 min ago' },
        ],
      },
    ]);
    expect(text).toBe('[image: cache]  from cache  3 min ago');
  });

  it('draws a divider as a rule no wider than the terminal', () => {
    expect(plain([{ type: 'divider' }], 20).text).toBe('─'.repeat(20));
  });

  it('renders rich text: sections, nested lists, preformatted and quotes', () => {
    const { text } = plain([
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              { type: 'text', text: 'Kits ', style: { bold: true } },
              { type: 'emoji', name: 'package', unicode: '1f4e6' },
              { type: 'link', url: 'https://erp.example', text: 'ERP' },
              { type: 'user', user_id: 'U1' },
            ],
          },
          {
            type: 'rich_text_list',
            style: 'bullet',
            elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Bolt' }] }],
          },
          {
            type: 'rich_text_list',
            style: 'ordered',
            indent: 1,
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'first' }] },
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'second' }] },
            ],
          },
          {
            type: 'rich_text_preformatted',
            elements: [{ type: 'text', text: 'A-1   2\nBB-22 10' }],
          },
          { type: 'rich_text_quote', elements: [{ type: 'text', text: 'quoted &lt; literally' }] },
        ],
      },
    ]);
    expect(text.split('\n')).toEqual([
      'Kits 📦ERP (https://erp.example)@U1',
      '  • Bolt',
      '    1. first',
      '    2. second',
      '  A-1   2',
      '  BB-22 10',
      '> quoted &lt; literally',
    ]);
  });

  it('renders a table block with aligned columns and a rule under the header row', () => {
    const { text } = plain([
      {
        type: 'table',
        column_settings: [null, { align: 'right' }],
        rows: [
          [
            { type: 'raw_text', text: 'Branch' },
            { type: 'raw_text', text: 'Qty' },
          ],
          [
            { type: 'raw_text', text: 'Sydney' },
            { type: 'raw_number', value: 120, text: '120' },
          ],
          [
            {
              type: 'rich_text',
              elements: [
                { type: 'rich_text_section', elements: [{ type: 'text', text: 'Perth' }] },
              ],
            },
            { type: 'raw_text', text: '5' },
          ],
        ],
      },
    ]);
    expect(text.split('\n')).toEqual(['Branch  Qty', '──────  ───', 'Sydney  120', 'Perth     5']);
  });

  it('shows images by title and alt text, and markdown blocks readably', () => {
    const { text } = plain([
      {
        type: 'image',
        image_url: 'https://x/c.png',
        alt_text: 'stock chart',
        title: { type: 'plain_text', text: 'Trend' },
      },
      { type: 'markdown', text: '## Usage\n**Bold** and *it* and [docs](https://d.example) `x*y`' },
    ]);
    expect(text).toBe(
      '[image: Trend: stock chart]\nUsage\nBold and it and docs (https://d.example) `x*y`',
    );
  });

  it('never crashes on unknown or malformed blocks', () => {
    const { text } = plain([{ type: 'video' }, { type: 'section', text: 42 }, null, 'x']);
    expect(text.split('\n')).toEqual([
      '[video block not shown in the console]',
      '[section block not shown in the console]',
      '[unknown block not shown in the console]',
      '[unknown block not shown in the console]',
    ]);
  });

  it('strips terminal control sequences that arrive inside data', () => {
    const { text } = plain([mrkdwn('Blue\u001b[2J widget\u0007')]);
    expect(text).toBe('Blue[2J widget');
  });
});

describe('renderMessage with colour', () => {
  it('uses ANSI styles: bold+underline header, bold, italic, dim context, coloured buttons', () => {
    const { text } = renderMessage(
      {
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: 'WIDGET-9' } },
          mrkdwn('*Available* _now_'),
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'as of 10:42' }] },
          {
            type: 'actions',
            elements: [
              button('Refresh', 'stock_refresh'),
              button('Share to channel', 'stock_share', undefined, 'primary'),
            ],
          },
        ],
      },
      { color: true },
    );
    expect(text.split('\n')).toEqual([
      '\u001b[1m\u001b[4mWIDGET-9\u001b[24m\u001b[22m',
      '\u001b[1mAvailable\u001b[22m \u001b[3mnow\u001b[23m',
      '\u001b[2mas of 10:42\u001b[22m',
      '\u001b[36m[1] Refresh\u001b[39m  \u001b[32m[2] Share to channel\u001b[39m',
    ]);
  });
});

describe('wrapping to the terminal width', () => {
  const long = 'word '.repeat(40).trim();
  it('wraps section text, fields, context lines and button rows at words', () => {
    const message = {
      blocks: [
        mrkdwn(long),
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: `*Left*\n${long}` },
            { type: 'mrkdwn', text: `*Right*\n${long}` },
          ],
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: long }] },
        {
          type: 'actions',
          elements: Array.from({ length: 8 }, (_, i) => ({
            type: 'button',
            action_id: `b${i}`,
            text: { type: 'plain_text', text: `Button number ${i}` },
          })),
        },
      ],
    };
    for (const width of [40, 60, 100]) {
      const { text, buttons } = renderMessage(message, { color: false, width });
      const lines = text.split('\n');
      expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(width);
      expect(text.replace(/\s+/g, ' ')).toContain(long.slice(0, 60));
      // Every button whole on one line.
      expect(buttons).toHaveLength(8);
      for (const button of buttons) {
        expect(lines.some((line) => line.includes(`[${button.number}] ${button.label}`))).toBe(
          true,
        );
      }
    }
  });
});
