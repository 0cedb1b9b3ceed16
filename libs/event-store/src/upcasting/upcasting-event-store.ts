import type { AllSubscription, EventStore, ReadAllOptions } from '../event-store.port';
import type { ExpectedRevision } from '../expected-revision';
import type { NewEvent, RecordedEvent } from '../envelope';
import type { CommitObserver, GroupCommitStats } from '../embedded';
import type { UpcasterRegistry } from './upcaster-registry';
import { eventsAt } from '../events-at';

/**
 * Any EventStore, handing out every event in its current shape: the ledger opens its
 * store through this, so the decider runner, the projections, the lease cascade and
 * time travel all load through one upcaster registry.
 */
export class UpcastingEventStore implements EventStore {
  constructor(
    readonly inner: EventStore,
    private readonly upcasters: UpcasterRegistry,
  ) {}

  appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision) {
    return this.inner.appendToStream(stream, events, expectedRevision);
  }

  async readStream(stream: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]> {
    return (await this.inner.readStream(stream, options)).map((event) => this.upcasters.upcast(event));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return (await this.inner.readAll(options)).map((event) => this.upcasters.upcast(event));
  }

  subscribeToAll(options?: { fromPosition?: number }): AllSubscription {
    const subscription = this.inner.subscribeToAll(options);
    const upcasters = this.upcasters;
    const takeReady = subscription.takeReady?.bind(subscription);
    return {
      close: () => subscription.close(),
      ...(takeReady ? { takeReady: () => takeReady().map((event) => upcasters.upcast(event)) } : {}),
      async *[Symbol.asyncIterator]() {
        for await (const event of subscription) yield upcasters.upcast(event);
      },
    };
  }

  /** The adapter's own counters (the embedded store's group commits), passed through for /metrics. */
  get stats(): (() => GroupCommitStats) | undefined {
    const inner = this.inner as { stats?: () => GroupCommitStats };
    return inner.stats?.bind(inner);
  }

  /** The embedded store's per-transaction observations (append latency histograms on /metrics), passed through. */
  get observeCommits(): ((observer: CommitObserver) => () => void) | undefined {
    const inner = this.inner as { observeCommits?: (observer: CommitObserver) => () => void };
    return inner.observeCommits?.bind(inner);
  }

  /** The embedded store's announcement of acknowledged commits, passed through; 0 (nothing to wait for) where the inner store has none. */
  announceCommits(): number {
    return this.inner.announceCommits?.() ?? 0;
  }

  async eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    const event = await this.inner.eventAtOrAfter(position);
    return event && this.upcasters.upcast(event);
  }

  /** The events at these positions (ReadsByPosition): in one query where the inner store reads so. */
  async eventsAt(positions: readonly number[]): Promise<RecordedEvent[]> {
    return (await eventsAt(this.inner, positions)).map((event) => this.upcasters.upcast(event));
  }

  positionAtTime(time: Date): Promise<number> {
    return this.inner.positionAtTime(time);
  }

  /** EventStoreDB's count of events in $all the ledger did not write, passed through for /metrics. */
  get foreignEventsSkipped(): number | undefined {
    return (this.inner as { foreignEventsSkipped?: number }).foreignEventsSkipped;
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
