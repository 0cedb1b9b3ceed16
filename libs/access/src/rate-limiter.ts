/**
 * A token bucket per key (an API key's id, or a client address): `ratePerSecond`
 * sustained, `burst` at once. At most `maxKeys` buckets are kept, the least recently
 * used dropped first: addresses, unlike keys, are not bounded by the keys file, and a
 * dropped bucket only forgets a client that has been quiet the longest.
 *
 * Elapsed time is read from a monotonic clock (`performance.now()`): on the wall clock a
 * step back (NTP, a VM restored from a snapshot) would be a negative interval that drains
 * every bucket for as long as the step.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxKeys = 100_000,
  ) {}

  /** 0 if the request may go ahead now, else the seconds to wait. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.ratePerSecond);
    bucket.at = now;
    // Re-inserted, so the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.ratePerSecond);
  }
}
