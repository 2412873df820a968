/** A seeded PRNG (mulberry32): the same seed replays the same fuzz cases. */
export interface Prng {
  seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    chance: (probability) => next() < probability,
  };
}

/** FUZZ_SEED from the environment (to replay a failure), else a fresh one. */
export function fuzzSeed(): number {
  const given = process.env.FUZZ_SEED;
  if (given && /^\d+$/.test(given)) return Number(given);
  return Math.floor(Math.random() * 2 ** 31);
}
