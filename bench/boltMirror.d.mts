import type { App, Middleware, SlackCommandMiddlewareArgs } from '@slack/bolt';

export function mirrorAppListeners(app: App, stock: Middleware<SlackCommandMiddlewareArgs>): void;

export const MIRRORED_LISTENERS: number;
