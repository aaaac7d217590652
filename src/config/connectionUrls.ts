/**
 * REDIS_URL and DATABASE_URL with their passwords. A password with `/`, `+`, `=`, `@`, `:`,
 * `#` or `%` breaks a URL written around it, and a compose file's `redis://:${PASSWORD}@…`
 * cannot escape it. So a password may come in a variable of its own (REDIS_PASSWORD,
 * DATABASE_PASSWORD), and the app puts it into the URL here with `encodeURIComponent`; the
 * clients (ioredis, pg) decode the userinfo again. A password written in the URL itself must
 * be percent-encoded already. No problem here repeats a value: it may be the password.
 */
import type { ConfigProblem } from './problems.js';

/** The URL with `password` put in, percent-encoded; the URL as given without one. */
export function withPassword(
  url: string | undefined,
  password: string | undefined,
): string | undefined {
  if (url === undefined || password === undefined) return url;
  const parsed = new URL(url);
  // The URL setter would leave `+`, `=`, `&`, `$` and `%` as they are; encodeURIComponent
  // escapes all but the unreserved characters, so the clients' decoding gives the password back.
  parsed.password = encodeURIComponent(password);
  return parsed.href;
}

/** The password a URL carries, decoded as the clients decode it; '' without one. */
export function passwordOf(url: string): string {
  const raw = new URL(url).password;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Each URL variable and the one that may carry its password instead. */
const PAIRS = [
  { url: 'REDIS_URL', password: 'REDIS_PASSWORD' },
  { url: 'DATABASE_URL', password: 'DATABASE_PASSWORD' },
] as const;

type Raw = Partial<Record<(typeof PAIRS)[number][keyof (typeof PAIRS)[number]], string>>;

/**
 * A password both in the URL and in its own variable (which is meant?), and a `%` in a URL's
 * password that starts no escape (the clients would throw on decoding it). A URL that does not
 * parse at all is the field's own problem, whose fix names the encoding.
 */
export function connectionUrlProblems(env: Raw): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const pair of PAIRS) {
    const url = env[pair.url];
    if (url === undefined || !URL.canParse(url)) continue;
    const password = new URL(url).password;
    if (password !== '' && env[pair.password] !== undefined) {
      problems.push({
        variable: pair.password,
        problem: `is set while ${pair.url} carries a password too`,
        fix: `Keep one: take the password out of ${pair.url}, or unset ${pair.password}.`,
      });
    }
    if (/%(?![0-9a-f]{2})/i.test(password)) {
      problems.push({
        variable: pair.url,
        problem: 'has a password with a % that is not percent-encoded',
        fix: `Percent-encode the password (encodeURIComponent: % becomes %25, / %2F), or leave it out of the URL and set ${pair.password}.`,
      });
    }
  }
  return problems;
}
