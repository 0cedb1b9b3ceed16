import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { SqliteReadOnlyEventStore } from '@ledger/event-store';
import { AUDIT_DATA_PATHS } from '../audit/audit-fields';
import { AuditIndexProjector } from '../audit/audit-index-projector';
import { openReadModelDatabase } from '../runtime/read-model-database';
import { ReadModelTables } from '../runtime/read-model-tables';
import { snapshotStatements, writeTakenSnapshot, type SnapshotStatements, type TakenSnapshot } from '../runtime/snapshots/taken-snapshot';
import { LEDGER_UPCASTERS } from '../upcasting/ledger-upcasters';
import { parseAuditFields } from './audit-fields-json';
import { monotonicMs } from './monotonic-ms';

/** Rows read ahead while the write lock is taken, at most; then the thread waits for it. */
const MAX_QUEUED_ROWS = 20_000;

/** What the rebuild hands its audit-index thread: where to read, where to write, how far. */
export interface AuditLoadTask {
  eventFile: string;
  /** Whether the log is read through the ledger's upcasters (as the rebuild's own store reads it). */
  ledgerUpcasters: boolean;
  readModelFile: string;
  until: number;
  pageSize: number;
  /** One Int32 the thread sets to 1 while it builds its indexes (the main thread copies the WAL back meanwhile). */
  indexing?: SharedArrayBuffer;
  /**
   * The pages' fields from the rebuild's main thread, which parses every event anyway
   * (AuditFieldsPage messages; one Int32 counts those posted, one those this thread has taken):
   * SQLite then reads only where each event is (position, type, stream, time). Without it
   * SQLite reads the fields too.
   */
  fieldsFromMain?: { port: MessagePort; posted: SharedArrayBuffer; taken: SharedArrayBuffer };
  /** The snapshot generation whose snapshots the main thread hands over on the same channel (TakenSnapshot), for this thread to write. */
  snapshots?: { projection: string; generation: number };
}

/**
 * A page of the log as the main thread folded it: after which position, up to which, and its
 * events' AUDIT_DATA_PATHS strings as the JSON of auditFieldsOf (printAuditFields: a few
 * strings of a few hundred events each). Strings cross the channel cheaper than the array
 * would (8,000,000 entries: printed and parsed in 0.7-0.8 s of CPU, copied by structured
 * clone in 1.2-1.35 s), and their printing and parsing fall on different threads.
 */
export type AuditFieldsPage = { after: number; last: number; count: number; fields: string[] } | { end: true };

/**
 * What the main thread sends on the channel: pages' fields, and the view's snapshots, which
 * this thread writes between its pages so that the main thread, which folds, never waits on
 * the write lock or spends its time in SQLite (about a second of its fold on the bench's log).
 */
export type FromMainThread = AuditFieldsPage | { snapshot: TakenSnapshot };

/** The generation the thread filled and indexed, and how far. */
export interface AuditLoaded {
  generation: number;
  position: number;
  events: number;
}

/** What the thread tells as it goes: a step done, when (monotonicMs()); then, once, what it loaded. */
export type AuditThreadMessage = { step: 'rows loaded' | 'indexed'; at: number } | { loaded: AuditLoaded };

/**
 * Fills a new generation of the audit index from position 0 to `until`, with its own
 * read-only handle on the log and its own connection to the read-model file: the same
 * projector the rebuild runs in-thread, so the rows are the same. Its indexes are built
 * once the rows are in, here too, while the rebuild's main thread may still be folding
 * the view; the rebuild catches the generation up and promotes it.
 */
export const loadAuditIndex = (task: AuditLoadTask, tell: (message: AuditThreadMessage) => void = () => undefined): AuditLoaded => {
  let store: SqliteReadOnlyEventStore;
  try {
    store = SqliteReadOnlyEventStore.open({ file: task.eventFile, upcasters: task.ledgerUpcasters ? LEDGER_UPCASTERS : undefined });
  } catch (error) {
    // SQLite's own message names no file ("unable to open database file").
    // The code (SQLITE_CANTOPEN, ...) goes along: the CLI tells storage faults by it.
    throw Object.assign(new Error(`cannot read the log at ${task.eventFile}: ${(error as Error).message}`), { code: (error as { code?: unknown }).code });
  }
  // Not 'bulk': this thread has time to spare while the main thread folds, so its commits copy
  // the WAL into the file as they go (every 1,000 pages, SQLite's default) rather than leave
  // up to 10,000 pages (320 MB) to copy while it indexes, when the rebuild waits on it
  // (`ledger-cli rebuild` timed step by step, three alternated pairs: 17.0, 16.0, 15.6 s against 22.6, 17.5, 17.4 s).
  const db = openReadModelDatabase(task.readModelFile);
  try {
    const audit = AuditIndexProjector.fresh(db, { deferIndexes: true });
    let position = 0;
    let events = 0;
    const snapshots = task.snapshots;
    let writer: { tables: ReadModelTables; statements: SnapshotStatements } | null = null;
    const writeSnapshot = (snapshot: TakenSnapshot): void => {
      if (!snapshots) throw new Error('the main thread sent a snapshot, but no generation to write it into');
      db.transaction(() => {
        writer ??= { tables: new ReadModelTables(db), statements: snapshotStatements(db, snapshots.projection, snapshots.generation) };
        writeTakenSnapshot(writer.tables, writer.statements, snapshot);
      }).immediate();
    };
    const fromMain = task.fieldsFromMain ? pagesFrom(task.fieldsFromMain, writeSnapshot) : null;
    let ended = false;
    while (position < task.until) {
      // Where each event is, read by SQLite, its fields too unless the main thread sent them: the thread parses no event (EventFieldReader).
      const given = fromMain?.();
      if (given && 'end' in given) {
        ended = true;
        break;
      }
      if (given && given.after !== position) throw new Error(`the main thread sent the page after ${given.after}, this thread is at ${position}`);
      const page = given
        ? store.readFieldsAfter(position, given.count, AUDIT_DATA_PATHS, parseAuditFields(given.fields))
        : store.readFieldsAfter(position, task.pageSize, AUDIT_DATA_PATHS);
      let keep = page.length;
      if (given && page[keep - 1]?.position !== given.last)
        throw new Error(`the page after ${position} ends at ${page[keep - 1]?.position}, the main thread's at ${given.last}`);
      if (keep === 0) break;
      if (page[keep - 1].position > task.until) keep = page.findIndex((event) => event.position > task.until);
      if (keep === 0) break;
      audit.queueFields(keep === page.length ? page : page.slice(0, keep));
      position = page[keep - 1].position;
      events += keep;
      // While another connection holds the write lock (a server beside the rebuild), read the next page instead of waiting for it.
      audit.writeQueued({ wait: audit.queuedRows >= MAX_QUEUED_ROWS });
    }
    // The main thread takes its last snapshots as it folds its last page: they come after it, before the end.
    if (fromMain && !ended) {
      const next = fromMain();
      if (!('end' in next)) throw new Error(`the main thread sent the page after ${next.after}, past position ${task.until}`);
    }
    if (task.indexing) Atomics.store(new Int32Array(task.indexing), 0, 1);
    audit.writeQueued({ wait: true });
    tell({ step: 'rows loaded', at: monotonicMs() });
    // The main thread only folds now, and soon waits: SQLite sorts each index in 4 MB runs on
    // two helper threads and merges them, rather than in one run as big as the page cache
    // (the five indexes of 1M events: 3.6 s instead of 5.9 s on an idle second core).
    db.pragma('cache_size = -4096');
    db.pragma('threads = 2');
    audit.buildIndexes();
    if (task.indexing) Atomics.store(new Int32Array(task.indexing), 0, 0);
    tell({ step: 'indexed', at: monotonicMs() });
    // Copy what the WAL holds into the file now (no write lock taken), while the main thread
    // has not begun the promotion: its transaction then starts the WAL afresh rather than
    // growing it, and the rebuild's last checkpoint has only the promotion left to copy.
    db.pragma('wal_checkpoint(PASSIVE)');
    return { generation: audit.generation, position, events };
  } finally {
    db.close();
    void store.close();
  }
};

/** Waits for the main thread's next page, writing the snapshots sent before it, without an event loop (the thread's loop is synchronous). */
const pagesFrom = (
  { port, posted, taken }: { port: MessagePort; posted: SharedArrayBuffer; taken: SharedArrayBuffer },
  writeSnapshot: (snapshot: TakenSnapshot) => void,
): (() => AuditFieldsPage) => {
  const count = new Int32Array(posted);
  const takenCount = new Int32Array(taken);
  let received = 0;
  return () => {
    for (;;) {
      const got = receiveMessageOnPort(port);
      if (got) {
        received++;
        // The main thread waits on this count when too much is queued (QueuedForThread).
        Atomics.store(takenCount, 0, received);
        const message = got.message as FromMainThread;
        if ('snapshot' in message) {
          writeSnapshot(message.snapshot);
          continue;
        }
        return message;
      }
      // Woken by the next post; the timeout only bounds a wait that a lost wake-up would make endless.
      Atomics.wait(count, 0, received, 100);
    }
  };
};

/**
 * An error as it can cross to the parent thread: SqliteError's message is not enumerable, so
 * the copy the parent gets would hold its code alone; a plain Error keeps both.
 */
const crossable = (error: unknown): Error => {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  return Object.assign(new Error(typeof message === 'string' ? message : String(error)), code === undefined ? {} : { code });
};

// Run as a worker_threads worker: load, answer, exit (an exception reaches the parent as 'error').
if (parentPort !== null && workerData !== null && typeof workerData === 'object' && 'readModelFile' in workerData) {
  const port = parentPort;
  const tell = (message: AuditThreadMessage) => port.postMessage(message);
  try {
    tell({ loaded: loadAuditIndex(workerData as AuditLoadTask, tell) });
  } catch (error) {
    throw crossable(error);
  }
}
