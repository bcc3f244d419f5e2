import type { RateLimit } from "../config.ts";

/*
 * Token buckets in memory, one per client key: `perSecond` tokens flow back each second up to `burst`, and a
 * request takes one (or as many as it costs: the events it carries). The map is bounded: past `maxClients` the least recently seen client is forgotten, which
 * at worst gives that client a fresh burst (clients that rotate addresses cannot grow memory).
 */

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number,
    private readonly maxClients = 100_000,
  ) {}

  /**
   * Takes `cost` tokens for `client`: 0 when the request may go ahead, else the seconds until it may (Retry-After).
   * A refused request takes nothing.
   */
  take(client: string, cost = 1): number {
    const { perSecond, burst } = this.limit;
    if (perSecond === 0) return 0;
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (bucket) {
      // Re-inserted so that the map's order is least recently seen first.
      this.buckets.delete(client);
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
    } else {
      bucket = { tokens: burst, at: now };
      if (this.buckets.size >= this.maxClients) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(client, bucket);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return 0;
    }
    return Math.max(1, Math.ceil((cost - bucket.tokens) / perSecond));
  }
}
