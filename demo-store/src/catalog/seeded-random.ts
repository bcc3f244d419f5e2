/*
 * Deterministic pseudo-randomness for synthetic fields. Every synthetic value is drawn from a generator
 * seeded by (product id, purpose), so a field never shifts because another field's drawing changed,
 * and the same id yields the same product on every machine and run.
 */

/** 32-bit FNV-1a over UTF-16 code units, finished with a murmur-style avalanche so near-identical ids diverge. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A deterministic generator; a class so creating one per product and purpose stays cheap. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1): mulberry32, tiny and good enough for sample data (not for anything security-related). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Log-uniform in [min, max]: many small values, a few large ones (review counts, likes). */
  logUniform(min: number, max: number): number {
    const lo = Math.log(min + 1);
    const hi = Math.log(max + 1);
    return Math.round(Math.exp(lo + this.next() * (hi - lo)) - 1);
  }
}

export function seededRandom(...seedParts: string[]): Rng {
  return new Rng(hashString(seedParts.join("\u0000")));
}
