/**
 * Seeded randomness for the sample generator. Math.random is never used: a seed and a key fix every
 * draw, so the same seed gives byte-identical files on every machine.
 *
 * The generator is sfc32 (small, fast, 128-bit state); its state comes from cyrb128 over a key of
 * strings and numbers, so a stream keyed by (seed, pool, question, sample) does not depend on the
 * order in which other streams were drawn.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform whole number in [0, n). */
  int(n: number): number;
  /** Uniform whole number in [lo, hi]. */
  between(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An index drawn in proportion to the (non-negative) weights. */
  weighted(weights: readonly number[]): number;
  /** Shuffles in place (Fisher-Yates) and returns the same array. */
  shuffle<T>(items: T[]): T[];
}

export type RngKey = readonly (string | number)[];

/** Reads items[index] where the caller knows it exists; a miss is a generator bug, so it throws. */
export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} outside a list of ${items.length}`);
  return item;
}

function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export function createRng(key: RngKey): Rng {
  // The NUL separator keeps ("ab", "c") and ("a", "bc") apart.
  let [a, b, c, d] = cyrb128(key.join('\u0000'));
  const next = (): number => {
    const t0 = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const t = (t0 + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm-up: the first outputs of sfc32 still correlate with the seed words.
  for (let i = 0; i < 12; i++) next();

  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    between: (lo, hi) => lo + int(hi - lo + 1),
    chance: (p) => next() < p,
    pick: (items) => at(items, int(items.length)),
    weighted: (weights) => {
      let total = 0;
      for (const w of weights) total += w;
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= at(weights, i);
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const tmp = at(items, i);
        items[i] = at(items, j);
        items[j] = tmp;
      }
      return items;
    },
  };
}

/**
 * Draws ranks 0..n-1 with probability falling as 1/(rank+1)^exponent, so a few cities or creators
 * are very common: that is what gives the corpus many passages sharing one name.
 */
export function zipfPicker(n: number, exponent: number): (rng: Rng) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let rank = 0; rank < n; rank++) {
    total += 1 / Math.pow(rank + 1, exponent);
    cumulative[rank] = total;
  }
  return (rng) => {
    const r = rng.next() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? total) > r) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
