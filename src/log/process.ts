/**
 * Process-level handlers. A promise rejection nobody handled (in a library such as Bolt's
 * receivers, or a bug of ours) is logged and the app keeps serving everyone else: Node's
 * default would end the process and take the app down for every user. An uncaught exception
 * still ends it (the process may be in a broken state; the platform restarts it), but is
 * logged first.
 */
import { type AppLogger, scrubSecrets } from './logger.js';

function describe(error: unknown): Record<string, unknown> {
  return error instanceof Error
    ? {
        name: error.name,
        message: scrubSecrets(error.message),
        stack: scrubSecrets(error.stack ?? ''),
      }
    : { value: scrubSecrets(String(error)) };
}

/** Installs the handlers; returns a function that removes them (tests). */
export function keepRunningOnStrayRejections(logger: AppLogger): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ event: 'unhandled_rejection', err: describe(reason) }, 'unhandled rejection');
  };
  const onException = (error: Error) => {
    logger.fatal({ event: 'uncaught_exception', err: describe(error) }, 'uncaught exception');
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtExceptionMonitor', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtExceptionMonitor', onException);
  };
}
