/**
 * A DATABASE_URL naming a database that does not exist, against the real PostgreSQL server:
 * named as such, with the fix, in the log line and in /readyz's reason, not "[redacted]" and
 * "unreachable".
 */
import { describe, expect, it } from 'vitest';
import { openWatchStore } from '../../src/watches/database.js';
import { databaseProblem } from '../../src/watches/databaseProblem.js';
import { createWatches } from '../../src/watches/index.js';
import { collectingLogger } from '../helpers/logSink.js';
import { FakeErp, FakeSlack, freeBudget, LIMITS } from './rig.js';
import { POSTGRES_URL } from './stores.js';

const missingUrl = (() => {
  const url = new URL(POSTGRES_URL);
  url.pathname = '/no_such_watch_db_34';
  return url.toString();
})();

describe('a database that does not exist', () => {
  it('is told apart from an unreachable server, naming the database and the fix', async () => {
    const error = await openWatchStore({ kind: 'postgres', url: missingUrl }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const problem = databaseProblem(error, missingUrl);
    expect(problem.kind).toBe('database_missing');
    expect(problem.message).toContain('"no_such_watch_db_34" does not exist');
    expect(problem.message).toContain('CREATE DATABASE');

    const away = new URL(POSTGRES_URL);
    away.port = '1';
    const refused = await openWatchStore({ kind: 'postgres', url: away.toString() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(databaseProblem(refused, away.toString()).kind).toBe('unreachable');
  });

  it('is logged at start and reported to readiness as database_missing', async () => {
    const { logger, lines } = collectingLogger('info');
    const erp = new FakeErp();
    const watches = createWatches({
      store: { kind: 'postgres', url: missingUrl },
      erp,
      fetchItem: (code) => erp.getItem({ code }),
      budget: freeBudget,
      poster: new FakeSlack(),
      limits: LIMITS,
      logger,
      tickMs: 60_000,
    });
    try {
      await watches.start();
      expect(await watches.databaseReady()).toBe('database_missing');
      const line = lines.find((l) => l.includes('watch_database')) ?? '';
      expect(line).toContain('database_missing');
      expect(line).toContain('no_such_watch_db_34');
      expect(line).not.toContain('[redacted]');
    } finally {
      await watches.close();
    }
  });
});
