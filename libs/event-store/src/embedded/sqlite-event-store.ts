import type { Database } from 'better-sqlite3';
import type { NewEvent, RecordedEvent } from '../envelope';
import type { ExpectedRevision } from '../expected-revision';
import type { AllSubscription, AppendResult, EventStore, ReadAllOptions } from '../event-store.port';
import { type AppendRequest, prepareAppend } from './append-request';
import { AppendNotifier } from './append-notifier';
import { type BatchOutcome, type CommitObserver, GroupCommit, type GroupCommitStats } from './group-commit';
import { type WrittenAppend, type WrittenBatch, recordedAtFrom } from './sqlite-batch-writer';
import { openSqliteConnection } from './sqlite-connection';
import { SqliteEventReader } from './sqlite-event-reader';
import { type ResolvedSqliteStoreOptions, type SqliteStoreOptions, resolveSqliteStoreOptions } from './sqlite-store-options';
import { SqliteAllSubscription } from './sqlite-subscription';
import { SharedTailRead } from './shared-tail-read';
import { InlineSqliteWriter } from './writer/inline-sqlite-writer';
import type { SqliteWriter } from './writer/sqlite-writer';
import { WorkerSqliteWriter } from './writer/worker-sqlite-writer';
import { RecentCommits } from './recent-commits';
import { asStorageFault } from '../storage-fault';
import { embeddedEventAtOrAfter, embeddedPositionAtTime } from './point-in-log';
import { deferredWork } from '../deferred-work';

const DEFAULT_READ_ALL_PAGE = 1000;
/** The newest committed events kept for this handle's subscriptions (a few pages: a subscriber further behind reads the file). */
const RECENT_EVENTS = 1024;

/** A caller gets the port's AppendResult: whether the append was a retry stays the store's business. */
const withoutWrittenFlag = (outcome: BatchOutcome<WrittenAppend>): BatchOutcome<AppendResult> =>
  outcome.ok ? { ok: true, value: { nextExpectedRevision: outcome.value.nextExpectedRevision, position: outcome.value.position } } : outcome;

const nonNegativeInteger = (name: string, value: number): number => {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be an integer >= 0, got ${String(value)}`);
  return value;
};

/**
 * The embedded event store: one SQLite file in WAL mode, safe to share between
 * handles and processes (every write takes the write lock with BEGIN IMMEDIATE and
 * checks the expected revision inside it). Appends are group-committed: see GroupCommit.
 * Durability of an acknowledged append is set by `synchronous`: see SqliteSynchronous.
 *
 * Writes run on a worker thread that owns the write connection (WorkerSqliteWriter),
 * so a commit's fsync never stalls this thread's event loop; reads run here, on this
 * handle's own connection. (':memory:' writes inline: another connection could not see it.)
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database;
  private readonly reader: SqliteEventReader;
  private readonly notifier = new AppendNotifier();
  private readonly tail: SharedTailRead;
  private readonly groupCommit: GroupCommit<AppendRequest, AppendResult>;
  private readonly subscriptions = new Set<SqliteAllSubscription>();
  private readonly recent = new RecentCommits(RECENT_EVENTS);
  /** Commits acknowledged and not yet announced to the subscriptions, oldest first. */
  private unannounced: { requests: AppendRequest[]; batch: WrittenBatch }[] = [];
  /** The position of the newest acknowledged append. */
  private acknowledged = 0;
  private closing: Promise<void> | undefined;

  static async open(options: SqliteStoreOptions): Promise<SqliteEventStore> {
    const resolved = resolveSqliteStoreOptions(options);
    // The reader's connection opens first and migrates the schema; the writer then finds it ready.
    const db = openSqliteConnection(resolved);
    try {
      const writer = db.memory
        ? new InlineSqliteWriter(db)
        : await WorkerSqliteWriter.open({
            file: resolved.file,
            synchronous: resolved.synchronous,
            busyTimeoutMs: resolved.busyTimeoutMs,
            pauseInCommit: resolved.testPauseInCommit,
          });
      return new SqliteEventStore(resolved, db, writer);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private constructor(
    private readonly options: ResolvedSqliteStoreOptions,
    db: Database,
    private readonly writer: SqliteWriter,
  ) {
    this.db = db;
    this.reader = new SqliteEventReader(this.db);
    this.tail = new SharedTailRead((after, max) => this.reader.readAfter(after, max));
    this.groupCommit = new GroupCommit(async (requests) => {
      let batch: WrittenBatch;
      try {
        // The writer thread hands SQLite's errors back with their code, so they classify here as before.
        batch = await this.writer.commit(requests, recordedAtFrom(options.clock));
      } catch (error) {
        // A full or read-only disk fails the whole batch: say so in the one storage vocabulary.
        throw asStorageFault(error) ?? error;
      }
      // Subscribers are told while the writer syncs the next commit, or within a millisecond
      // (deferred-work.ts), or when a reader asks (announceCommits): after the answers have
      // gone out and the client has sent its next request, so the read models' fold never
      // stands between the two. A subscription about to read announces first (SubscriptionSource).
      let acknowledged = 0;
      for (const outcome of batch.outcomes) if (outcome.ok) acknowledged = Math.max(acknowledged, outcome.value.position);
      if (acknowledged > 0) {
        this.acknowledged = Math.max(this.acknowledged, acknowledged);
        this.unannounced.push({ requests, batch });
        deferredWork.defer(this.announce);
      }
      return batch.outcomes.map(withoutWrittenFlag);
    }, options.maxBatch);
  }

  /**
   * Tells this handle's subscriptions now of every commit it has acknowledged, instead of at
   * the next commit's hand-off, and returns the newest one's position (0 before any): a read
   * that must reflect every answer given waits for its projection to reach it.
   */
  announceCommits(): number {
    if (this.unannounced.length > 0) {
      const commits = this.unannounced;
      this.unannounced = [];
      if (this.subscriptions.size > 0) for (const { requests, batch } of commits) this.recent.remember(requests, batch);
      this.notifier.notify();
    }
    return this.acknowledged;
  }

  private readonly announce = (): void => void this.announceCommits();

  async appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    return this.groupCommit.submit(prepareAppend(stream, events, expectedRevision));
  }

  async readStream(stream: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.reader.readStream(stream, nonNegativeInteger('fromRevision', options.fromRevision ?? 0));
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const fromPosition = nonNegativeInteger('fromPosition', options.fromPosition ?? 0);
    const maxCount = options.maxCount ?? DEFAULT_READ_ALL_PAGE;
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new TypeError(`maxCount must be an integer >= 1, got ${String(maxCount)}`);
    return this.reader.readAfter(fromPosition, maxCount);
  }

  subscribeToAll(options: { fromPosition?: number } = {}): AllSubscription {
    const fromPosition = nonNegativeInteger('fromPosition', options.fromPosition ?? 0);
    const source = {
      readAfter: (afterPosition: number, maxCount: number) => {
        this.assertOpen();
        return this.recent.after(afterPosition, maxCount) ?? this.tail.read(afterPosition, maxCount, this.notifier.sequence);
      },
      notifier: this.notifier,
      pollIntervalMs: this.options.pollIntervalMs,
      announce: this.announce,
    };
    const subscription = new SqliteAllSubscription(source, fromPosition, (ended) => this.subscriptions.delete(ended));
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return this.reader.headPosition();
  }

  /** The events at these positions, in log order (ReadsByPosition). */
  async eventsAt(positions: readonly number[]): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.reader.eventsAt(positions);
  }

  async eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    this.assertOpen();
    return embeddedEventAtOrAfter((after, max) => this.reader.readAfter(after, max), position);
  }

  async positionAtTime(time: Date): Promise<number> {
    this.assertOpen();
    return embeddedPositionAtTime((after, max) => this.reader.readAfter(after, max), this.reader.headPosition(), time);
  }

  /** Group-commit counters: how many transactions carried how many appends. */
  stats(): GroupCommitStats {
    return this.groupCommit.stats();
  }

  /** Called after each write transaction with its size and each append's latency (metrics). */
  observeCommits(observer: CommitObserver): () => void {
    return this.groupCommit.observeCommits(observer);
  }

  /**
   * Ends every subscription, lets appends already submitted commit and settle, then
   * closes the file. Any later call is refused. Calling close() again is harmless.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
      await this.groupCommit.drain();
      await this.writer.close();
      this.db.close();
    })();
    return this.closing;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error(`SqliteEventStore(${this.options.file}) is closed`);
  }
}
