import { randomUUID } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '../envelope';
import type { AllSubscription, AppendResult, EventStore, ReadAllOptions } from '../event-store.port';
import type { ExpectedRevision } from '../expected-revision';

/**
 * A model of EventStoreDB's idempotency for appends without an exact expected revision,
 * over any store. The server recognises a retried append (same event ids) as a duplicate
 * for an exact revision or `no_stream` by checking the stored events; for `any` and
 * `stream_exists` only while the ids are in a bounded in-memory cache of recent writes,
 * lost on restart or failover ("When using ExpectedVersion::Any, the server will do its
 * best to assure idempotency but will not guarantee idempotency": the EventStoreDB client
 * documentation, docs.rs/eventstore ExpectedVersion). This wrapper models the cache as
 * already lost: an `any`/`stream_exists` append whose ids are stored is written again, as a
 * duplicate (under fresh ids, since the embedded store keys events by id).
 * Exact revisions and `no_stream` pass through: both stores check them the same way.
 */
export class ForgetfulIdempotencyStore implements EventStore {
  constructor(private readonly inner: EventStore) {}

  async appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (expectedRevision !== 'any' && expectedRevision !== 'stream_exists') return this.inner.appendToStream(stream, events, expectedRevision);
    const stored = new Set((await this.inner.readStream(stream)).map((event) => event.id));
    const written = events.map((event) => (stored.has(event.id) ? { ...event, id: randomUUID() } : event));
    return this.inner.appendToStream(stream, written, expectedRevision);
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
