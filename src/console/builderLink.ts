/**
 * Block Kit Builder links: open a message in Slack's visual editor to see it as Slack draws it.
 * Prefilled links are not a documented API; Slack's own docs and common practice put
 * `{"blocks":[…]}`, URL-encoded, in the fragment, optionally after a workspace id. The
 * fragment never reaches a server, so the message stays in the browser.
 */
const BUILDER = 'https://app.slack.com/block-kit-builder/';

export function blockKitBuilderUrl(message: { blocks: unknown[] }, teamId?: string): string {
  const team = teamId && /^[A-Z0-9]+$/.test(teamId) ? teamId : '';
  return `${BUILDER}${team}#${encodeURIComponent(JSON.stringify({ blocks: message.blocks }))}`;
}

/** A text-only message becomes one mrkdwn section, so every message can be opened. */
export function blocksForBuilder(message: { text?: string; blocks?: unknown[] }): unknown[] {
  if (message.blocks && message.blocks.length > 0) return message.blocks;
  const text = message.text?.trim() ? message.text : ' ';
  return [{ type: 'section', text: { type: 'mrkdwn', text } }];
}
