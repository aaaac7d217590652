import type { AnyMiddlewareArgs, App, Middleware } from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { contactCommand } from './contact.js';
import { stockCommand } from './stock.js';

/** The slash commands of the product; both manifests declare the same (a test checks). */
export const COMMANDS = ['/stock', '/contact'] as const;

export function registerCommands(
  app: App,
  deps: ListenerDeps,
  screen: Middleware<AnyMiddlewareArgs>,
): void {
  app.command('/stock', screen, stockCommand(deps));
  app.command('/contact', screen, contactCommand(deps));
}
