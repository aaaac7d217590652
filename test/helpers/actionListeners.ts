/**
 * The button listeners as `registerActions` hands them to Bolt: each action id (or pattern)
 * with the callback it runs, recorded from a stand-in for Bolt's `app.action`.
 */
import type { AnyMiddlewareArgs, App, Middleware } from '@slack/bolt';
import type { ListenerDeps } from '../../src/slack/deps.js';
import { registerActions } from '../../src/slack/listeners/actions/index.js';

export interface RegisteredAction {
  actionId: string | RegExp;
  /** How many listener middleware run before the callback. */
  middleware: number;
  listener: (args: unknown) => Promise<void>;
}

export function registeredActions(deps: ListenerDeps): RegisteredAction[] {
  const registered: RegisteredAction[] = [];
  const app = {
    action: (actionId: string | RegExp, ...chain: unknown[]) => {
      registered.push({
        actionId,
        middleware: chain.length - 1,
        listener: chain.at(-1) as RegisteredAction['listener'],
      });
    },
  };
  const screen: Middleware<AnyMiddlewareArgs> = async ({ next }) => next();
  registerActions(app as unknown as App, deps, screen);
  return registered;
}

/** Bolt's own rule: a string names the whole id; a pattern is matched against it. */
export const answers = (action: RegisteredAction, id: string): boolean =>
  typeof action.actionId === 'string' ? action.actionId === id : action.actionId.test(id);
