import type { AllSubscription, EventStore } from '../event-store.port';
import { DelegatingStore } from './delegating.store';

export interface DroppingOptions {
  /** Seed of the drop schedule, so a failing run can be replayed. */
  seed: number;
  /** A subscription lives for 0..maxEvents events (uniform), then is dropped. */
  maxEvents: number;
}

/** What a dropped subscription raises: as the client does on a lost connection or "consumer too slow". */
export class SubscriptionDroppedError extends Error {
  override readonly name = 'SubscriptionDroppedError';
}

/**
 * Fault injection over any store: every subscription is dropped after a random number of
 * events, half the time with an error (connection lost, leader change, EventStoreDB before
 * 24.2 dropping a consumer 32 events behind) and half the time by ending cleanly (the server
 * closing the stream). Everything else passes through. Deterministic for a given seed.
 */
export class DroppingSubscriptionsStore extends DelegatingStore {
  drops = { errors: 0, ends: 0 };
  private state: number;

  constructor(
    inner: EventStore,
    private readonly options: DroppingOptions,
  ) {
    super(inner);
    this.state = options.seed >>> 0 || 1;
  }

  override subscribeToAll(options?: { fromPosition?: number }): AllSubscription {
    const inner = this.inner.subscribeToAll(options);
    const lifetime = this.random(this.options.maxEvents + 1);
    const withError = this.random(2) === 0;
    const drops = this.drops;
    return {
      close: () => inner.close(),
      async *[Symbol.asyncIterator]() {
        let delivered = 0;
        try {
          for await (const event of inner) {
            if (delivered === lifetime) break;
            delivered += 1;
            yield event;
          }
        } finally {
          await inner.close();
        }
        if (withError) {
          drops.errors += 1;
          throw new SubscriptionDroppedError(`subscription dropped after ${delivered} events (injected)`);
        }
        drops.ends += 1;
      },
    };
  }

  /** xorshift32: 0..n-1. */
  private random(n: number): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state % n;
  }
}
