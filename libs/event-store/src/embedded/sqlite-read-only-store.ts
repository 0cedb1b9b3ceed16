import Database from 'better-sqlite3';
import type { RecordedEvent } from '../envelope';
import type { AllSubscription, AppendResult, EventStore, ReadAllOptions } from '../event-store.port';
import { AppendNotifier } from './append-notifier';
import { EVENT_COLUMNS, type StoredEventRow } from './event-row';
import { EventFieldReader, type DataPath, type EventFields } from './event-fields';
import { SCHEMA_VERSION } from './schema';
import { SqliteAllSubscription } from './sqlite-subscription';
import { NO_UPCASTERS, type UpcasterRegistry } from '../upcasting/upcaster-registry';
import { embeddedEventAtOrAfter, embeddedPositionAtTime } from './point-in-log';
import { endsWithSchemaVersion, EventWithUnreadMetadata } from './event-with-unread-metadata';

const toEvent = (row: StoredEventRow): RecordedEvent => ({
  id: row[1],
  type: row[4],
  stream: row[2],
  revision: row[3],
  position: row[0],
  recordedAt: row[7],
  data: JSON.parse(row[5]) as unknown,
  metadata: JSON.parse(row[6]) as RecordedEvent['metadata'],
});

export interface SqliteReadOnlyStoreOptions {
  file: string;
  /** Old event shapes made current as they are read (default: events exactly as stored). */
  upcasters?: UpcasterRegistry;
  /** How often a live subscription looks for events appended by the process that writes the file. */
  pollIntervalMs?: number;
  busyTimeoutMs?: number;
}

/**
 * The embedded store's file opened for reading only, for tools (replay, rebuild,
 * verify, export) that run beside a live ledger: a read-only handle never migrates,
 * never takes the write lock, and cannot append. WAL mode lets it read a consistent
 * snapshot while the ledger writes. Rows are fetched as arrays (no per-row objects),
 * since tools read the whole log.
 */
export class SqliteReadOnlyEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly allAfter: Database.Statement<[number, number], StoredEventRow>;
  private readonly atPositions: Database.Statement<[string], StoredEventRow>;
  private readonly streamFrom: Database.Statement<[string, number], StoredEventRow>;
  private readonly head: Database.Statement<[], [number]>;
  private readonly notifier = new AppendNotifier();
  private readonly subscriptions = new Set<SqliteAllSubscription>();
  private closed = false;
  private readonly upcasters: UpcasterRegistry;
  /** One reader per list of data paths asked for (readFieldsAfter). */
  private readonly fieldReaders = new Map<string, EventFieldReader>();

  static open(options: SqliteReadOnlyStoreOptions): SqliteReadOnlyEventStore {
    return new SqliteReadOnlyEventStore(options);
  }

  private constructor(private readonly options: SqliteReadOnlyStoreOptions) {
    this.upcasters = options.upcasters ?? NO_UPCASTERS;
    this.db = new Database(options.file, { readonly: true, fileMustExist: true });
    try {
      this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5_000}`);
      const version = this.db.pragma('user_version', { simple: true }) as number;
      if (version === 0) throw new Error(`${options.file} is not an event store (no schema)`);
      if (version > SCHEMA_VERSION) throw new Error(`${options.file} has schema version ${version}, newer than this code understands (${SCHEMA_VERSION})`);
      this.allAfter = this.db
        .prepare<[number, number], StoredEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`)
        .raw(true);
      this.atPositions = this.db
        .prepare<[string], StoredEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position IN (SELECT value FROM json_each(?)) ORDER BY position`)
        .raw(true);
      this.streamFrom = this.db
        .prepare<[string, number], StoredEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision`)
        .raw(true);
      this.head = this.db.prepare<[], [number]>('SELECT COALESCE(MAX(position), 0) FROM events').raw(true);
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  async appendToStream(stream: string): Promise<AppendResult> {
    throw new Error(`appendToStream(${stream}): ${this.options.file} is open read-only`);
  }

  async readStream(stream: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.streamFrom.all(stream, options.fromRevision ?? 0).map((row) => this.upcasters.upcast(toEvent(row)));
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.readAfter(options.fromPosition ?? 0, options.maxCount ?? 1_000);
  }

  /** The same as readAll, synchronously: what tools folding millions of events call. */
  readAfter(afterPosition: number, maxCount: number): RecordedEvent[] {
    this.assertOpen();
    const rows = this.allAfter.all(afterPosition, maxCount);
    const events = new Array<RecordedEvent>(rows.length);
    for (let i = 0; i < rows.length; i++) events[i] = this.upcasters.upcast(toEvent(rows[i]));
    return events;
  }

  /**
   * readAfter for a fold that reads the events' data and never their metadata (a rebuild of
   * the read models): an event stored in its type's current shape comes with its metadata
   * unparsed until read (EventWithUnreadMetadata); any other is read and upcast as readAfter does.
   */
  readDataAfter(afterPosition: number, maxCount: number): RecordedEvent[] {
    this.assertOpen();
    const rows = this.allAfter.all(afterPosition, maxCount);
    const events = new Array<RecordedEvent>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      events[i] = endsWithSchemaVersion(row[6], this.upcasters.currentVersion(row[4])) ? new EventWithUnreadMetadata(row) : this.upcasters.upcast(toEvent(row));
    }
    return events;
  }

  /** The events at these positions, in log order (ReadsByPosition): one query, each made current. */
  async eventsAt(positions: readonly number[]): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.atPositions.all(JSON.stringify(positions)).map((row) => this.upcasters.upcast(toEvent(row)));
  }

  /**
   * A page of events as the audit index's rebuild needs them: per event, where it is and
   * the strings at `paths` in its data (current shape), with SQLite reading the fields so
   * that no event is parsed here (EventFieldReader), unless they are `given` (a reader that
   * parsed these events took them already).
   */
  readFieldsAfter(afterPosition: number, maxCount: number, paths: readonly DataPath[], given?: readonly (string | null)[]): EventFields[] {
    this.assertOpen();
    const key = JSON.stringify(paths);
    let reader = this.fieldReaders.get(key);
    if (!reader) {
      reader = new EventFieldReader(this.db, paths, this.upcasters, toEvent);
      this.fieldReaders.set(key, reader);
    }
    return reader.readAfter(afterPosition, maxCount, given);
  }

  subscribeToAll(options: { fromPosition?: number } = {}): AllSubscription {
    const source = {
      readAfter: (after: number, max: number) => this.readAfter(after, max),
      notifier: this.notifier,
      pollIntervalMs: this.options.pollIntervalMs ?? 100,
    };
    const subscription = new SqliteAllSubscription(source, options.fromPosition ?? 0, (ended) => this.subscriptions.delete(ended));
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * Another handle on this file (the process that writes it) says it committed: live
   * subscriptions read now instead of at their next poll.
   */
  poke(): void {
    this.notifier.notify();
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return this.head.get()?.[0] ?? 0;
  }

  async eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    return embeddedEventAtOrAfter((after, max) => this.readAfter(after, max), position);
  }

  async positionAtTime(time: Date): Promise<number> {
    return embeddedPositionAtTime((after, max) => this.readAfter(after, max), await this.headPosition(), time);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`SqliteReadOnlyEventStore(${this.options.file}) is closed`);
  }
}
