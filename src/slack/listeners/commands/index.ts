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

/** One Bolt listener for both commands: every registered listener costs every request. */
export function registerCommands(app: App, deps: ListenerDeps): void {
  const listeners = new Map(COMMANDS.map((name) => [name, COMMAND_LISTENERS[name](deps)]));
  app.command(new RegExp(`^(${COMMANDS.join('|')})$`), async (args) => {
    await listeners.get(args.command.command as (typeof COMMANDS)[number])?.(args);
  });
}
