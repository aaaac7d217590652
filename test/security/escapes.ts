import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/**
 * Fails each test of the calling file in which a promise rejection reached the process
 * unhandled: what would have ended `npm start` (Node's default) must not happen at all.
 */
export function failOnEscapedRejections(): void {
  const escaped: unknown[] = [];
  const onRejection = (reason: unknown) => escaped.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
  });
  afterEach(() => {
    expect(escaped).toEqual([]);
  });
}
