import { describe, expect, it } from 'vitest';
import { blockKitBuilderUrl, blocksForBuilder } from '../../src/console/builderLink.js';

const blocks = [
  { type: 'header', text: { type: 'plain_text', text: 'WIDGET-9 & co #1 ?x=%' } },
  {
    type: 'section',
    text: { type: 'mrkdwn', text: '*Avail* &lt;40&gt; <https://x.example?a=1&b=2|link>' },
  },
];

function decode(url: string): unknown {
  const fragment = url.slice(url.indexOf('#') + 1);
  return JSON.parse(decodeURIComponent(fragment));
}

describe('blockKitBuilderUrl', () => {
  it('puts the URL-encoded {"blocks":[…]} in the fragment and decodes back to the same blocks', () => {
    const url = blockKitBuilderUrl({ blocks });
    expect(url.startsWith('https://app.slack.com/block-kit-builder/#')).toBe(true);
    expect(url.indexOf('#')).toBe(url.lastIndexOf('#'));
    expect(url).not.toMatch(/[\s"{}]/);
    expect(decode(url)).toEqual({ blocks });
  });

  it('puts a workspace id before the fragment, and ignores one that is not an id', () => {
    expect(
      blockKitBuilderUrl({ blocks }, 'T0001').startsWith(
        'https://app.slack.com/block-kit-builder/T0001#',
      ),
    ).toBe(true);
    expect(
      blockKitBuilderUrl({ blocks }, '../evil').startsWith(
        'https://app.slack.com/block-kit-builder/#',
      ),
    ).toBe(true);
  });

  it('gives text-only messages a section so every message can be opened', () => {
    expect(blocksForBuilder({ text: 'Quick *answer*' })).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: 'Quick *answer*' } },
    ]);
    expect(blocksForBuilder({ text: 'x', blocks })).toBe(blocks);
  });
});
