/**
 * How the console stands in for Slack under a Bolt App: the App's options that point it at
 * the console (its receiver, a placeholder token, a loopback Web API), starting the App, and
 * the loopback servers that play Slack's side.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, AppInitializationError, type Receiver } from '@slack/bolt';
import { CONSOLE } from './identity.js';

/** What the composition root needs to build a Bolt App answered by the console. */
export interface ConsoleTransport {
  /** Pass as `receiver` in the App options. */
  receiver: Receiver;
  /** Pass as `token`: a placeholder only ever sent to the console's own loopback server. */
  token: string;
  /** Pass as `clientOptions.slackApiUrl`: Web API calls (chat.postMessage, users.info…) land here. */
  slackApiUrl: string;
  /** Pass `botId` and `botUserId` too, so Bolt does not need an `auth.test` round trip. */
  botId: string;
  botUserId: string;
}

/** The console's transport over `receiver`, its Web API calls going to `slackApiUrl`. */
export function consoleTransport(receiver: Receiver, slackApiUrl: string): ConsoleTransport {
  return {
    receiver,
    token: CONSOLE.token,
    slackApiUrl,
    botId: CONSOLE.botId,
    botUserId: CONSOLE.botUserId,
  };
}

/** Starts the App; one built with `deferInitialization: true` is initialised first. */
export async function startApp(app: App): Promise<void> {
  try {
    await app.start();
  } catch (error) {
    // An App built with `deferInitialization: true` must be initialised first.
    if (!(error instanceof AppInitializationError)) throw error;
    await app.init();
    await app.start();
  }
}

/** Listens on 127.0.0.1, on a port the system picks; resolves with the server's base URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops listening and drops kept-alive connections, which would hold the close open. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
