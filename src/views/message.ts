import type { KnownBlock } from '@slack/types';

/** A Slack message as the views build it: blocks plus the plain-text fallback Slack needs. */
export interface SlackMessage {
  /** Notification and screen-reader text; never contains unredacted personal data. */
  text: string;
  blocks: KnownBlock[];
}
