/**
 * A token bucket per principal: `ratePerSecond` sustained, `burst` at once. Memory is
 * bounded by the number of keys, which the keys file bounds.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly ratePerSecond: number, private readonly burst: number, private readonly now: () => number = Date.now) {}

  /** 0 if the request may go ahead now, else the seconds to wait. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.ratePerSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.ratePerSecond);
  }
}
