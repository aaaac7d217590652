/**
 * Runs the console over in-memory streams: types `lines`, waits for it to finish, and returns
 * its exit code with what it wrote to standard output and standard error.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { consoleAppFor, createServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { type ConsoleOptions, runConsole } from '../../src/console/index.js';
import { createLogger } from '../../src/log/logger.js';

type Output = PassThrough & { isTTY?: boolean; columns?: number };

export async function consoleSession(
  lines: readonly string[],
  options: Omit<ConsoleOptions, 'input' | 'output' | 'errorOutput'>,
  columns?: number,
): Promise<{ code: number; text: string; errors: string }> {
  const input = new PassThrough();
  const output: Output = new PassThrough();
  const errorOutput = new PassThrough();
  // A terminal of this width, as the console sees one (it wraps lines to it).
  if (columns) Object.assign(output, { isTTY: true, columns });
  let text = '';
  let errors = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  errorOutput.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const running = runConsole({ ...options, input, output, errorOutput });
  input.end(lines.map((line) => `${line}\n`).join(''));
  const code = await running;
  return { code, text, errors };
}

/**
 * The real app on the built-in sandbox ERP for a test file: its services made before the
 * tests and closed after, and a session over it that types `lines` (`more`: options of that
 * session alone, such as `once`).
 */
export function sandboxConsole(extra: Partial<ConsoleOptions> = {}) {
  const logger = createLogger({ level: 'silent' });
  let services: Services | undefined;
  beforeAll(async () => {
    services = await createServices(loadConfig({}), logger);
  });
  afterAll(async () => {
    await services?.close();
  });
  const running = (): Services => {
    if (!services) throw new Error('sandboxConsole: the services are not started yet');
    return services;
  };
  const session = (lines: readonly string[], more: Partial<ConsoleOptions> = {}) => {
    const app = running();
    return consoleSession(lines, {
      buildApp: (transport) => consoleAppFor(app, transport),
      color: false,
      logger,
      historyFile: false,
      timing: { quietMs: 150, lateAnswerMs: 500, timeoutMs: 20_000 },
      ...extra,
      ...more,
    });
  };
  /** The app's services, for a test that looks at what the session left (the index, the ERP). */
  return Object.assign(session, { services: running });
}
