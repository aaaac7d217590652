import type { ListenerDeps } from '../../deps.js';
import { contactCommand } from './contact.js';
import type { CommandArgs } from './lookupCommand.js';
import { stockCommand } from './stock.js';

const COMMAND_LISTENERS = {
  '/stock': stockCommand,
  '/contact': contactCommand,
} as const;

/** The slash commands of PRODUCT.md; both manifests declare the same (a test checks). */
export const COMMANDS = Object.keys(COMMAND_LISTENERS) as Array<keyof typeof COMMAND_LISTENERS>;

/** Who answers each slash command, by its name (`/stock`). */
export function commandHandlers(
  deps: ListenerDeps,
): ReadonlyMap<string, (args: CommandArgs) => Promise<void>> {
  return new Map(COMMANDS.map((name) => [name, COMMAND_LISTENERS[name](deps)]));
}
