import type { Database, Statement } from 'better-sqlite3';
import { ConcurrencyError } from '../concurrency-error';
import type { ActualRevision, ExpectedRevision } from '../expected-revision';
import type { AppendResult } from '../event-store.port';
import type { WrittenAppend } from './sqlite-batch-writer';
import type { AppendRequest } from './append-request';
import { EventIdConflictError } from './event-id-conflict-error';

interface StoredEventRef {
  stream: string;
  revision: number;
  position: number;
}

const expectationHolds = (expected: ExpectedRevision, actual: ActualRevision): boolean => {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === 'no_stream';
    case 'stream_exists':
      return actual !== 'no_stream';
    default:
      return expected === actual;
  }
};

/**
 * Writes one append. It must run inside a write transaction (the group commit wraps
 * each call in its own SAVEPOINT), so the checks below and the INSERTs are atomic:
 * no other connection can write between reading the stream's revision and writing.
 */
export class SqliteStreamAppender {
  private readonly findEvent: Statement<[string], StoredEventRef>;
  private readonly idsInRange: Statement<[string, number, number], { event_id: string; position: number }>;
  private readonly streamRevision: Statement<[string], { revision: number }>;
  private readonly insertEvent: Statement<[string, string, number, string, string, string, string]>;
  private readonly saveStreamRevision: Statement<[string, number]>;
  private readonly newestRecordedAt: Statement<[], { recorded_at: string }>;

  constructor(db: Database) {
    this.findEvent = db.prepare('SELECT stream, revision, position FROM events WHERE event_id = ?');
    this.idsInRange = db.prepare('SELECT event_id, position FROM events WHERE stream = ? AND revision BETWEEN ? AND ? ORDER BY revision');
    this.streamRevision = db.prepare('SELECT revision FROM streams WHERE stream = ?');
    this.insertEvent = db.prepare(
      `INSERT INTO events (event_id, stream, revision, type, data, metadata, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.saveStreamRevision = db.prepare(
      `INSERT INTO streams (stream, revision) VALUES (?, ?)
       ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision`,
    );
    this.newestRecordedAt = db.prepare('SELECT recorded_at FROM events ORDER BY position DESC LIMIT 1');
  }

  /** When the newest event was recorded (under the write lock: no writer can add a newer one meanwhile). */
  latestRecordedAt(): string | undefined {
    return this.newestRecordedAt.get()?.recorded_at;
  }

  append(request: AppendRequest, recordedAt: string): WrittenAppend {
    const retried = this.findRetriedAppend(request);
    if (retried) return { ...retried, written: false };

    const current = this.streamRevision.get(request.stream)?.revision;
    const actual: ActualRevision = current ?? 'no_stream';
    if (!expectationHolds(request.expectedRevision, actual)) {
      throw new ConcurrencyError(request.stream, request.expectedRevision, actual);
    }

    let revision = current ?? -1;
    let position = 0;
    for (const event of request.events) {
      revision += 1;
      const inserted = this.insertEvent.run(event.id, request.stream, revision, event.type, event.data, event.metadata, recordedAt);
      position = Number(inserted.lastInsertRowid);
    }
    this.saveStreamRevision.run(request.stream, revision);
    return { nextExpectedRevision: revision, position, written: true };
  }

  /**
   * An idempotent retry: the first id is stored and all ids sit consecutively, in the
   * same order, in this stream. Returns the result the original append returned,
   * whatever the expected revision says now (the stream may have moved on since).
   * Any other reuse of stored ids is refused.
   */
  private findRetriedAppend({ stream, events }: AppendRequest): AppendResult | undefined {
    const first = this.findEvent.get(events[0].id);
    if (!first) {
      for (const event of events.slice(1)) {
        const stored = this.findEvent.get(event.id);
        if (stored) {
          throw new EventIdConflictError(
            stream,
            event.id,
            `is already stored (stream ${stored.stream}, revision ${stored.revision}) but the first event of the append is new`,
          );
        }
      }
      return undefined;
    }
    if (first.stream !== stream) {
      throw new EventIdConflictError(stream, events[0].id, `is already stored in another stream (${first.stream})`);
    }
    const stored = this.idsInRange.all(stream, first.revision, first.revision + events.length - 1);
    const mismatch = events.findIndex((event, index) => stored[index]?.event_id !== event.id);
    if (mismatch !== -1) {
      throw new EventIdConflictError(
        stream,
        events[mismatch].id,
        `does not follow ${events[0].id} in the stored stream, so this is not a retry of one earlier append`,
      );
    }
    return { nextExpectedRevision: first.revision + events.length - 1, position: stored[stored.length - 1].position };
  }
}
