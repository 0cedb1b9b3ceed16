import type { NewEvent, RecordedEvent } from '../envelope';
import type { AllSubscription, AppendResult, EventStore, ReadAllOptions } from '../event-store.port';
import type { ExpectedRevision } from '../expected-revision';

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
export class DroppingSubscriptionsStore implements EventStore {
  drops = { errors: 0, ends: 0 };
  private state: number;

  constructor(
    private readonly inner: EventStore,
    private readonly options: DroppingOptions,
  ) {
    this.state = options.seed >>> 0 || 1;
  }

  subscribeToAll(options?: { fromPosition?: number }): AllSubscription {
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

  appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.inner.appendToStream(stream, events, expectedRevision);
  }

  readStream(stream: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    return this.inner.eventAtOrAfter(position);
  }

  positionAtTime(time: Date): Promise<number> {
    return this.inner.positionAtTime(time);
  }

  close(): Promise<void> {
    return this.inner.close();
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
