/**
 * The app's clock as real time plus an offset the test moves forward: a check interval or a
 * snooze passes at once, and nothing sleeps. Only what reads this clock (the listeners and
 * the watches, through `startApp({ now })`) sees the jump.
 */
export function movableClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number): void {
      offsetMs += ms;
    },
  };
}
