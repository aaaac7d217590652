/**
 * The benchmark's stand-in for the app's listeners (bench/boltMirror.mjs) must register what
 * the app registers: the same global middleware count and the same Bolt listeners, kind by
 * kind, in order, each with as many listener middleware. Otherwise the bench's "Bolt's
 * floor" row measures some other app.
 */
import { App, type Receiver } from '@slack/bolt';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { MIRRORED_LISTENERS, mirrorAppListeners } from '../../bench/boltMirror.mjs';
import { createSlackApp } from '../../src/slack/app.js';
import { listenerDeps } from '../helpers/listenerDeps.js';
import { collectingLogger } from '../helpers/logSink.js';

const receiver: Receiver = {
  init: () => {},
  start: () => Promise.resolve(),
  stop: () => Promise.resolve(),
};

function mirrorApp(): App {
  const app = new App({
    token: 'xoxb-mirror',
    receiver,
    botId: 'B0MIRROR',
    botUserId: 'U0MIRROR',
    convoStore: false,
  });
  mirrorAppListeners(app, async ({ ack }) => {
    await ack();
  });
  return app;
}

/** The app as `npm start` builds it, on a receiver that never listens. */
function ourApp(): App {
  const { logger } = collectingLogger('warn', 'mirror');
  return createSlackApp({
    transport: { kind: 'custom', receiver, botToken: 'xoxb-mirror', botId: 'B0', botUserId: 'U0' },
    apiUrl: 'https://slack.com/api/',
    logger,
    listeners: listenerDeps({} as never, logger),
    routes: {
      health: () => ({ status: 'ok' }) as never,
      readiness: () => ({ ready: true }) as never,
      registry: new Registry(),
    },
  });
}

/** Bolt keeps its chains private; their shape is what this test compares. */
interface Chains {
  middleware: unknown[];
  listeners: Array<Array<(...args: unknown[]) => unknown>>;
}
const chainsOf = (app: App) => app as unknown as Chains;

/** Each listener as the name of its first matcher (onlyCommands, onlyActions, …) and its length. */
const shape = (app: App) =>
  chainsOf(app).listeners.map((chain) => `${chain[0]?.name ?? '?'}/${chain.length}`);

describe('the bench mirror of the app listeners', () => {
  it('registers the same global middleware and Bolt listeners, kind by kind, as the app', () => {
    const ours = ourApp();
    const mirror = mirrorApp();
    expect(shape(mirror)).toEqual(shape(ours));
    expect(chainsOf(mirror).middleware.length).toBe(chainsOf(ours).middleware.length);
    expect(shape(ours)).toContain('onlyCommands/4');
    expect(shape(ours)).toHaveLength(MIRRORED_LISTENERS);
  });
});
