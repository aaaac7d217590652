/**
 * A tiny seeded PRNG (mulberry32) for the sandbox's own decisions: data shapes and fault
 * rolls. Faker has its own seeded generator for names; this one keeps the structural choices
 * (which items get a BOM, which requests fail) reproducible without reaching into Faker.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with the given probability. */
  chance(probability: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(values: readonly T[]): T;
  /** `count` distinct elements (fewer if the array is shorter), in random order. */
  sample<T>(values: readonly T[], count: number): T[];
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: <T>(values: readonly T[]): T => {
      if (values.length === 0) throw new RangeError('pick from an empty array');
      return values[int(0, values.length - 1)] as T;
    },
    sample: <T>(values: readonly T[], count: number): T[] => {
      const copy = [...values];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy.slice(0, Math.max(0, count));
    },
  };
}

/** Unseeded randomness with the same interface, for sandboxes started without a seed. */
export function unseededRandom(): Random {
  return createRandom(Math.floor(Math.random() * 2 ** 32));
}
