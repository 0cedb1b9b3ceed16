import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../envelope';
import type { AppendResult } from '../event-store.port';
import type { ExpectedRevision } from '../expected-revision';
import { DelegatingStore } from './delegating.store';

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
export class ForgetfulIdempotencyStore extends DelegatingStore {
  override async appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (expectedRevision !== 'any' && expectedRevision !== 'stream_exists') return this.inner.appendToStream(stream, events, expectedRevision);
    const stored = new Set((await this.inner.readStream(stream)).map((event) => event.id));
    const written = events.map((event) => (stored.has(event.id) ? { ...event, id: randomUUID() } : event));
    return this.inner.appendToStream(stream, written, expectedRevision);
  }
}
