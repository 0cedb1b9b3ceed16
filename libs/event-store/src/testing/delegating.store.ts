import type { NewEvent, RecordedEvent } from '../envelope';
import type { AllSubscription, AppendResult, EventStore, ReadAllOptions } from '../event-store.port';
import type { ExpectedRevision } from '../expected-revision';

/** Passes every call to `inner`: the base of the fault-injecting and model stores, which override one or two. */
export class DelegatingStore implements EventStore {
  constructor(protected readonly inner: EventStore) {}

  appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.inner.appendToStream(stream, events, expectedRevision);
  }

  readStream(stream: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  subscribeToAll(options?: { fromPosition?: number }): AllSubscription {
    return this.inner.subscribeToAll(options);
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
}
