/**
 * When a daily digest is due: a local time of day in an IANA zone, turned into instants with
 * Intl's own zone data (the runtime's tz database), so summer time and zone changes follow
 * whatever Node knows. Pure functions of their arguments.
 */

/** The canonical name of a zone Intl knows ('australia/perth' → 'Australia/Perth'), or undefined. */
export function canonicalZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** `08:00`, `8:00`, `17:30` → minutes after midnight; undefined when it is not a time of day. */
export function minuteOfDay(text: string): number | undefined {
  const match = /^([01]?[0-9]|2[0-3]):([0-5][0-9])$/.exec(text);
  if (match === null) return undefined;
  return Number(match[1]) * 60 + Number(match[2]);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(zone: string, at: number) {
  let format = formatters.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(format.formatToParts(at).find((p) => p.type === type)?.value ?? 0);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/** The zone's offset from UTC at `at`, in ms (Perth: +8 h). */
function offsetMs(zone: string, at: number): number {
  const wall = wallClock(zone, at);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The instant the zone's clocks read `minute` past midnight on that local date. */
function instantOf(zone: string, year: number, month: number, day: number, minute: number) {
  const wall = Date.UTC(year, month - 1, day, 0, minute);
  // Twice: the offset at the first guess may differ from the offset at the answer (summer time).
  const guess = wall - offsetMs(zone, wall);
  return wall - offsetMs(zone, guess);
}

/** The first instant after `after` at which the zone's clocks read `minute` past midnight. */
export function nextSlot(after: number, minute: number, zone: string): number {
  const today = wallClock(zone, after);
  for (let days = 0; days < 3; days += 1) {
    const at = instantOf(zone, today.year, today.month, today.day + days, minute);
    if (at > after) return at;
  }
  // Unreachable for any zone on Earth (offsets stay under a day); a day later, to be safe.
  return after + 24 * 60 * 60_000;
}
