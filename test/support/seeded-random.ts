/**
 * A small seeded PRNG (mulberry32), so a randomized end-to-end run prints its seed and
 * the same choices can be made again. (Timing still varies between runs on purpose.)
 */
export interface SeededRandom {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** An independent generator derived from this one (e.g. one per client). */
  fork(): SeededRandom;
}

export const seededRandom = (seed: number): SeededRandom => {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: SeededRandom = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)];
    },
    chance: (probability) => next() < probability,
    fork: () => seededRandom(Math.floor(next() * 4294967296)),
  };
  return random;
};

/** The seed from `envName` when set (to replay a failure), else a fresh one. */
export const seedFrom = (envName: string): number => {
  const given = process.env[envName];
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed)) throw new Error(`${envName} must be an integer, got ${given}`);
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 31);
};
