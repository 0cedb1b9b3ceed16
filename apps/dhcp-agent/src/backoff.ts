import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Delays between retries, doubling from a quarter second up to ten seconds. Timers run
 * on the monotonic clock, so a wall-clock jump neither stalls nor hurries a retry.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly firstMs = 250,
    private readonly maxMs = 10_000,
  ) {}

  next(): number {
    return Math.min(this.maxMs, this.firstMs * 2 ** Math.min(this.attempt++, 16));
  }

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    await sleep(ms, undefined, { signal });
  }
}
