import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import type { LedgerViewState } from '../ledger-view/views';
import { AuditIndexProjector } from '../audit/audit-index-projector';
import { AUDIT_INDEX } from '../audit/audit-index-tables';
import { CheckpointStore } from '../runtime/checkpoint-store';
import { ReadModelTables } from '../runtime/read-model-tables';
import { StateFold } from '../runtime/state-fold';
import { SnapshotWriter } from '../runtime/snapshots/snapshot-writer';
import { snapshotsOf, snapshotTablesOf } from '../runtime/snapshots/snapshot-tables';
import type { FromMainThread } from './audit-index-worker';
import { startAuditWorker } from './audit-worker-thread';
import { QueuedForThread } from './queued-for-thread';
import { printAuditFields } from './audit-fields-json';
import { CascadeFold } from '../lease-cascade/cascade-fold';
import { monotonicMs } from './monotonic-ms';

export interface FoldProgress {
  position: number;
  events: number;
  /** The position the fold runs to. */
  until: number;
}

export interface RebuildReadModelsOptions {
  store: EventStore;
  /** The read-model database to build into (the live file, or a scratch one). */
  db: Database.Database;
  /** Snapshot spacing for time travel (LEDGER_SNAPSHOT_EVERY); 0: none. */
  snapshotEvery: number;
  /** Fold up to this position (default: the head when the rebuild starts). */
  until?: number;
  pageSize?: number;
  /** Called after each page (progress bars). */
  onProgress?: (progress: FoldProgress) => void;
  /** Positions at which to stop and call `onStop` with the view folded exactly that far (verify compares there). */
  stops?: readonly number[];
  onStop?: (position: number, view: LedgerViewState) => void;
  clock?: () => Date;
  /**
   * Fill and index the audit index on a worker thread, in parallel with the ledger view and
   * its snapshots (the two cost about the same; a machine has two cores or more): the thread
   * opens the log file itself (read-only, through the ledger's upcasters or none, as
   * `store` reads it) and writes through its own connection to `db`'s file. Only for the
   * embedded store's file and a read-model file others may open (not with `stops`).
   */
  auditOnWorker?: { eventFile: string; ledgerUpcasters: boolean };
  /** Called as each step of the rebuild ends, on either thread (a timeline of where the time goes). */
  onStep?: (step: RebuildStep) => void;
  /**
   * With `auditOnWorker`: at most this many characters (pages' fields, snapshots) posted to
   * the thread and not taken by it yet when the next page is posted (default
   * MAX_QUEUED_FOR_THREAD); then the fold waits for the thread.
   */
  maxQueuedChars?: number;
  /** With `auditOnWorker`: told, as each page is posted, how many characters are still queued for the thread before it. */
  onQueued?: (chars: number) => void;
}

/**
 * What the fold may have posted to the audit thread and the thread not taken yet: a few
 * seconds of the fold on the bench's log (its pages' fields, 80 characters an event, and its
 * snapshots, about 4 MB each every 10,000 events), three times the most a thread that keeps
 * up lets queue there (20 M, timed step by step on both threads), so such a thread never makes the fold
 * wait, and one held up (a server beside it holding the write lock) no longer lets the
 * queue grow with the log.
 */
export const MAX_QUEUED_FOR_THREAD = 64 * 1024 * 1024;

/** A step of a rebuild, done on the main thread or the audit index's, at `at` (monotonicMs(), the same base on both threads). */
export interface RebuildStep {
  thread: 'main' | 'audit';
  step: string;
  at: number;
}

export interface RebuiltReadModels {
  events: number;
  position: number;
  seconds: number;
  view: LedgerViewState;
}

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

/** How far the generations a rebuild replaces have got (a running ledger keeps writing them). */
const replacedPosition = (tables: ReadModelTables): number =>
  Math.max(tables.current(AUDIT_INDEX)?.position ?? 0, tables.current(snapshotsOf(ledgerProjection.name))?.position ?? 0);

/**
 * Pages of the log: synchronously from the read-only embedded store (no promise a page), its
 * events' metadata left unparsed (no read model reads it), else through the port.
 */
const pageReader = (store: EventStore, pageSize: number): ((after: number) => RecordedEvent[] | Promise<RecordedEvent[]>) => {
  const readDataAfter = (store as { readDataAfter?: (after: number, max: number) => RecordedEvent[] }).readDataAfter;
  return typeof readDataAfter === 'function'
    ? (after) => readDataAfter.call(store, after, pageSize)
    : (after) => store.readAll({ fromPosition: after, maxCount: pageSize });
};

/** A page cut after each stop it passes, so the fold can be looked at exactly there. */
const splitAt = (page: readonly RecordedEvent[], stops: readonly number[]): RecordedEvent[][] => {
  const parts: RecordedEvent[][] = [];
  let start = 0;
  for (const stop of stops) {
    if (stop >= page[page.length - 1].position) break;
    let end = start;
    while (end < page.length && page[end].position <= stop) end++;
    if (end > start) parts.push(page.slice(start, end));
    start = end;
  }
  if (start < page.length) parts.push(page.slice(start));
  return parts;
};

/**
 * Rebuilds every read model from position 0 in one pass over the log (each event read
 * and parsed once, then folded into the ledger view, its snapshots, the audit index and
 * the lease cascade's checkpoint),
 * into new generations, and promotes them all at the end. Until then, readers of `db`
 * keep seeing the old ones. The audit index is bulk-loaded and indexed once complete;
 * with `auditOnWorker` it is loaded and indexed on a second thread while this one folds
 * the view; the thread also writes the snapshots this one takes, so this one writes nothing
 * until the promotion, and serialises the view's checkpoint while the thread indexes.
 */
export const rebuildReadModels = async (options: RebuildReadModelsOptions): Promise<RebuiltReadModels> => {
  const started = process.hrtime.bigint();
  const { db, store, snapshotEvery } = options;
  const step = (name: string) => options.onStep?.({ thread: 'main', step: name, at: monotonicMs() });
  const until = options.until ?? (await store.headPosition());
  const tables = new ReadModelTables(db);
  const snapshotGeneration = snapshotEvery > 0 ? tables.allocate(snapshotsOf(ledgerProjection.name)) : 0;
  const snapshots =
    snapshotGeneration > 0 ? new SnapshotWriter(db, ledgerProjection.name, { every: snapshotEvery, clock: options.clock }, snapshotGeneration) : null;
  const view = new StateFold(ledgerProjection, ledgerProjection.initialState(), { snapshots, clock: options.clock });
  // The lease cascade too: a ledger started after the rebuild is ready without stepping through the log again.
  const cascade = new CascadeFold();
  const pageSize = options.pageSize ?? 2_000;
  // A second thread reads and parses the log again: worth it only with a second core.
  const parallel = options.auditOnWorker !== undefined && (options.stops ?? []).length === 0 && db.name !== ':memory:' && availableParallelism() >= 2;
  const onWorker = parallel ? options.auditOnWorker! : null;
  // Set by the thread while it builds its indexes, holding the write lock seconds at a time.
  const indexing = new Int32Array(new SharedArrayBuffer(4));
  const threadIndexing = () => Atomics.load(indexing, 0) === 1;
  // The thread's pages, with the fields this thread takes from the events it parses anyway, up to `until`.
  // Posted without waiting for the thread, up to maxQueuedChars not taken by it yet.
  const fieldsChannel = onWorker ? new MessageChannel() : null;
  const fieldsPosted = new Int32Array(new SharedArrayBuffer(4));
  const fieldsTaken = new Int32Array(new SharedArrayBuffer(4));
  const queued = new QueuedForThread(fieldsTaken);
  const maxQueuedChars = options.maxQueuedChars ?? MAX_QUEUED_FOR_THREAD;
  const worker = onWorker
    ? startAuditWorker(
        {
          eventFile: onWorker.eventFile,
          ledgerUpcasters: onWorker.ledgerUpcasters,
          readModelFile: db.name,
          until,
          pageSize,
          indexing: indexing.buffer,
          fieldsFromMain: { port: fieldsChannel!.port2, posted: fieldsPosted.buffer as SharedArrayBuffer, taken: fieldsTaken.buffer as SharedArrayBuffer },
          snapshots: snapshotGeneration > 0 ? { projection: ledgerProjection.name, generation: snapshotGeneration } : undefined,
        },
        (done) => options.onStep?.(done),
      )
    : null;
  const toThread = (message: FromMainThread): void => {
    fieldsChannel!.port1.postMessage(message);
    queued.posted(message);
    Atomics.add(fieldsPosted, 0, 1);
    Atomics.notify(fieldsPosted, 0);
  };
  // In-thread from the start, or (with a worker) once the worker has filled its generation to `until`.
  let audit: AuditIndexProjector | null = worker ? null : AuditIndexProjector.fresh(db, { deferIndexes: true });
  // The thread holds the write lock for its pages and, for seconds at a time, for each of its
  // indexes: snapshots wait in memory for it rather than stop the fold.
  let threadDone = worker === null;
  // Its end closes the channel too: an open port would keep the process alive.
  const ended = () => {
    threadDone = true;
    fieldsChannel?.port1.close();
  };
  worker?.done.then(ended, ended);
  // The thread writes the fold's snapshots between its pages; this one only takes them.
  if (worker) snapshots?.handOff((snapshot) => toThread({ snapshot }));
  const read = pageReader(store, pageSize);

  const stops = [...(options.stops ?? [])].filter((stop) => stop <= until).sort((a, b) => a - b);
  let events = 0;
  let position = 0;
  const foldTo = async (target: number): Promise<void> => {
    while (position < target) {
      let page = await read(position);
      if (page.length === 0) break;
      if (page[page.length - 1].position > target)
        page = page.slice(
          0,
          page.findIndex((event) => event.position > target),
        );
      if (page.length === 0) break;
      // Sent before the fold, so the thread reads its page meanwhile.
      if (worker && position < until) {
        while (!threadDone && queued.queuedChars > maxQueuedChars) await pause();
        options.onQueued?.(queued.queuedChars);
        toThread({ after: position, last: page[page.length - 1].position, count: page.length, fields: printAuditFields(page) });
      }
      for (const part of splitAt(page, stops)) {
        // A stop before this part's first event sees the view as it is now: folded exactly that far.
        while (stops.length > 0 && stops[0] < part[0].position) options.onStop?.(stops.shift()!, view.state);
        view.applyPage(part);
      }
      audit?.applyPage(page);
      cascade.applyPage(page);
      position = page[page.length - 1].position;
      events += page.length;
      options.onProgress?.({ position, events, until: Math.max(until, target) });
    }
  };

  try {
    await foldTo(until);
    if (worker) toThread({ end: true });
    step('view folded');
    if (worker) {
      // The thread is still loading or indexing the audit rows, and writing the last snapshots:
      // serialise the view's checkpoint meanwhile.
      view.serialiseCheckpoint();
      step('checkpoint serialised');
      for (let idle = 0; !threadDone; idle++) {
        // Idle while the thread indexes: copy the WAL into the file meanwhile (a checkpoint
        // takes no write lock), so the rebuild's last checkpoint, after the promotion, has less to copy.
        if (threadIndexing() && idle % 40 === 39) db.pragma('wal_checkpoint(PASSIVE)');
        await Promise.race([worker.done, pause()]);
      }
      const loaded = await worker.done;
      // Every snapshot the fold took is written; those of the catch-up below are written here.
      snapshots?.takeBack();
      step('snapshots written');
      if (loaded.position !== position) throw new Error(`the audit index's rebuild thread reached position ${loaded.position}, the ledger view ${position}`);
      audit = AuditIndexProjector.filled(db, loaded.generation);
    }
  } catch (error) {
    await worker?.stop();
    throw error;
  }
  while (stops.length > 0) options.onStop?.(stops.shift()!, view.state);
  const index = audit!;
  // In-thread, the rows are all in: index them now (the thread indexed its own).
  if (!worker) {
    index.buildIndexes();
    step('audit indexed');
  }
  // A running ledger keeps indexing into the generations being replaced while this one
  // folds. Promoting a generation behind them would hide the rows it lacks, and the live
  // projector, following the new generation from its position onwards, would never write
  // them: a row missing from the live index for good. So the new generations catch up
  // with the ones they replace first, checked again under the write lock of the switch.
  // (Generations ahead of the log itself, a read-model file from another log, are replaced as they are.)
  for (;;) {
    const target = replacedPosition(tables);
    await foldTo(target);
    const cascadeState = await cascade.checkpoint(read);
    const logEndsBefore = position < target;
    const promoted = db
      .transaction(() => {
        if (!logEndsBefore && replacedPosition(tables) > position) return false;
        if (snapshotGeneration > 0) tables.promote(snapshotsOf(ledgerProjection.name), snapshotGeneration, snapshotTablesOf(ledgerProjection.name));
        const checkpoints = CheckpointStore.on(db);
        view.saveCheckpointsTo(checkpoints, { whole: true });
        CascadeFold.saveUnlessBehind(checkpoints, cascadeState, (options.clock ?? (() => new Date()))());
        view.flush();
        index.promote();
        return true;
      })
      .immediate();
    if (promoted) break;
  }
  step('promoted');
  // The rebuild ends with what it wrote in the file, not only in its WAL (the promotion saves
  // the view's state, 108 MB on a 1,000,000-event ledger): copied inside the time it reports,
  // not left to whoever writes or closes the file next.
  db.pragma('wal_checkpoint(PASSIVE)');
  step('copied into the file');
  return { events, position, seconds: Number(process.hrtime.bigint() - started) / 1e9, view: view.state };
};
