/**
 * Defers the watch store (and loading Kysely and the database drivers) until watches are
 * first used: an app whose users never watch anything pays nothing for the feature.
 */
import type { WatchStore, WatchStoreOptions } from './database.js';

/** Opens the store on first use, once, however many callers ask at the same time. */
export function lazyWatchStore(options: WatchStoreOptions): {
  get(): Promise<WatchStore>;
  /** Whether it was opened (for /readyz: a store never used is not a problem). */
  opened(): boolean;
  close(): Promise<void>;
} {
  let opening: Promise<WatchStore> | undefined;
  return {
    get() {
      opening ??= import('./database.js')
        .then(({ openWatchStore }) => openWatchStore(options))
        .catch((error: unknown) => {
          // The next use tries again (the database may be back).
          opening = undefined;
          throw error;
        });
      return opening;
    },
    opened: () => opening !== undefined,
    async close() {
      const store = await opening?.catch(() => undefined);
      opening = undefined;
      await store?.close();
    },
  };
}
