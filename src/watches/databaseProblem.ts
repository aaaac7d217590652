/**
 * What went wrong opening the watch database, in the operator's words. PostgreSQL's own codes
 * tell a database that does not exist, refused credentials and a server that is away apart:
 * each has a different fix, and "unreachable" for the first two sends the operator to the
 * network. The database's name is not a secret and is named; the URL's password never is.
 */
import { z } from 'zod';

export type DatabaseProblemKind = 'database_missing' | 'credentials_refused' | 'unreachable';

interface DatabaseProblem {
  kind: DatabaseProblemKind;
  /** One sentence with the fix. */
  message: string;
}

const PgError = z.object({ code: z.string().optional() }).loose();

/** The codes along the error and its causes (a migration failure wraps the driver's error). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const parsed = PgError.safeParse(current);
    if (parsed.success && parsed.data.code) codes.push(parsed.data.code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** The database a postgres:// URL names (its path), or undefined. */
function databaseNameOf(databaseUrl: string | undefined): string | undefined {
  if (databaseUrl === undefined) return undefined;
  try {
    const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}

export function databaseProblem(error: unknown, databaseUrl: string | undefined): DatabaseProblem {
  const codes = codesOf(error);
  const name = databaseNameOf(databaseUrl) ?? '(the user name)';
  // 3D000 invalid_catalog_name: the server answered, the database is not there.
  if (codes.includes('3D000')) {
    return {
      kind: 'database_missing',
      message: `the watch database "${name}" does not exist on the PostgreSQL server: create it (CREATE DATABASE "${name}", or createdb ${name}) or point DATABASE_URL at one that exists`,
    };
  }
  // 28P01 invalid_password, 28000 invalid_authorization_specification.
  if (codes.includes('28P01') || codes.includes('28000')) {
    return {
      kind: 'credentials_refused',
      message:
        'PostgreSQL refused the user name or password in DATABASE_URL: check them (the app retries)',
    };
  }
  return {
    kind: 'unreachable',
    message: 'the watch database cannot be reached: the app keeps serving and retries',
  };
}
