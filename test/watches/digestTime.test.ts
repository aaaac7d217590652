import { describe, expect, it } from 'vitest';
import { canonicalZone, minuteOfDay, nextSlot } from '../../src/watches/digestTime.js';

describe('digest times', () => {
  it('reads HH:MM and zones Intl knows, canonically', () => {
    expect(minuteOfDay('08:00')).toBe(480);
    expect(minuteOfDay('8:05')).toBe(485);
    expect(minuteOfDay('23:59')).toBe(1439);
    for (const bad of ['24:00', '8', '08:60', '8am', '', '08:00:00'])
      expect(minuteOfDay(bad)).toBeUndefined();
    expect(canonicalZone('australia/perth')).toBe('Australia/Perth');
    expect(canonicalZone('UTC')).toBe('UTC');
    for (const bad of ['Mars/Olympus', '../etc', 'x'.repeat(80), 'Europe/London;drop']) {
      expect(canonicalZone(bad)).toBeUndefined();
    }
  });

  it('the next slot is the first instant after, at that local time, today or tomorrow', () => {
    const at = Date.UTC(2026, 10, 27, 7, 59);
    expect(new Date(nextSlot(at, 480, 'UTC')).toISOString()).toBe('2026-11-27T08:00:00.000Z');
    expect(new Date(nextSlot(Date.UTC(2026, 10, 27, 8, 0), 480, 'UTC')).toISOString()).toBe(
      '2026-11-28T08:00:00.000Z',
    );
    // Perth is UTC+8 all year: 08:00 there is 00:00 UTC.
    expect(new Date(nextSlot(at, 480, 'Australia/Perth')).toISOString()).toBe(
      '2026-11-28T00:00:00.000Z',
    );
  });

  it('follows summer time: 08:00 in London is 08:00 UTC in winter and 07:00 UTC in summer', () => {
    // The clocks go forward on 29 March 2026.
    const saturday = Date.UTC(2026, 2, 28, 9, 0);
    const sunday = nextSlot(saturday, 480, 'Europe/London');
    expect(new Date(sunday).toISOString()).toBe('2026-03-29T07:00:00.000Z');
    const friday = Date.UTC(2026, 2, 27, 7, 0);
    expect(new Date(nextSlot(friday, 480, 'Europe/London')).toISOString()).toBe(
      '2026-03-27T08:00:00.000Z',
    );
    // Each slot a local day after the one before, across the change.
    expect(nextSlot(sunday, 480, 'Europe/London') - sunday).toBe(24 * 60 * 60_000);
  });
});
