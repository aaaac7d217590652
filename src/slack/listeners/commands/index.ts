import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { contactCommand } from './contact.js';
import { stockCommand } from './stock.js';

const COMMAND_LISTENERS = {
  '/stock': stockCommand,
  '/contact': contactCommand,
} as const;

/** The slash commands of PRODUCT.md; both manifests declare the same (a test checks). */
export const COMMANDS = Object.keys(COMMAND_LISTENERS) as Array<keyof typeof COMMAND_LISTENERS>;

export function registerCommands(app: App, deps: ListenerDeps): void {
  for (const command of COMMANDS) app.command(command, COMMAND_LISTENERS[command](deps));
}
