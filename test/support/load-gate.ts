/**
 * Lets a test pause a load of concurrent clients and know when none of them has a
 * request in flight (to inspect the system between crashes), then let them go again.
 */
export class LoadGate {
  private paused = true;
  private inFlight = 0;
  private resumeWaiters: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];

  /** Waits while paused; then counts the caller as in flight until it calls leave(). */
  async enter(): Promise<void> {
    while (this.paused) await new Promise<void>((resolve) => this.resumeWaiters.push(resolve));
    this.inFlight++;
  }

  leave(): void {
    this.inFlight--;
    if (this.inFlight === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  resume(): void {
    this.paused = false;
    this.resumeWaiters.splice(0).forEach((resolve) => resolve());
  }

  /** Stops new requests and resolves once those in flight have finished. */
  pause(): Promise<void> {
    this.paused = true;
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
