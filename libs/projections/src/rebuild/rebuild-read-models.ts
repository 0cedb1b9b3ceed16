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
}

export interface RebuiltReadModels {
  events: number;
  position: number;
  seconds: number;
  view: LedgerViewState;
}

/** How far the generations a rebuild replaces have got (a running ledger keeps writing them). */
const replacedPosition = (tables: ReadModelTables): number =>
  Math.max(tables.current(AUDIT_INDEX)?.position ?? 0, tables.current(snapshotsOf(ledgerProjection.name))?.position ?? 0);

type Page = { events: RecordedEvent[]; json?: string[] };

/**
 * Pages of the log. The read-only embedded store hands them out synchronously and with
 * each envelope's JSON spliced from the stored text, so the audit index need not print
 * every event again; any other store is read through the port.
 */
const pageReader = (store: EventStore, pageSize: number): ((after: number) => Promise<Page>) => {
  const withJson = (store as { readAfterWithJson?: (after: number, max: number) => Page }).readAfterWithJson;
  if (typeof withJson === 'function') return async (after) => withJson.call(store, after, pageSize);
  return async (after) => ({ events: await store.readAll({ fromPosition: after, maxCount: pageSize }) });
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
 * and parsed once, then folded into the ledger view, its snapshots and the audit index),
 * into new generations, and promotes them all at the end. Until then, readers of `db`
 * keep seeing the old ones. The audit index is bulk-loaded and indexed once complete.
 */
export const rebuildReadModels = async (options: RebuildReadModelsOptions): Promise<RebuiltReadModels> => {
  const started = process.hrtime.bigint();
  const { db, store, snapshotEvery } = options;
  const until = options.until ?? (await store.headPosition());
  const tables = new ReadModelTables(db);
  const snapshotGeneration = snapshotEvery > 0 ? tables.allocate(snapshotsOf(ledgerProjection.name)) : 0;
  const snapshots = snapshotGeneration > 0 ? new SnapshotWriter(db, ledgerProjection.name, { every: snapshotEvery, clock: options.clock }, snapshotGeneration) : null;
  const view = new StateFold(ledgerProjection, ledgerProjection.initialState(), { snapshots, clock: options.clock });
  const audit = AuditIndexProjector.fresh(db, { deferIndexes: true });
  const read = pageReader(store, options.pageSize ?? 2_000);

  const stops = [...(options.stops ?? [])].filter((stop) => stop <= until).sort((a, b) => a - b);
  let events = 0;
  let position = 0;
  const foldTo = async (target: number): Promise<void> => {
    while (position < target) {
      const next = await read(position);
      let page = next.events;
      let json = next.json;
      if (page.length === 0) break;
      if (page[page.length - 1].position > target) {
        const keep = page.findIndex((event) => event.position > target);
        page = page.slice(0, keep);
        json = json?.slice(0, keep);
      }
      if (page.length === 0) break;
      for (const part of splitAt(page, stops)) {
        // A stop before this part's first event sees the view as it is now: folded exactly that far.
        while (stops.length > 0 && stops[0] < part[0].position) options.onStop?.(stops.shift()!, view.state);
        view.applyPage(part);
      }
      audit.applyPage(page, json);
      position = page[page.length - 1].position;
      events += page.length;
      options.onProgress?.({ position, events, until: Math.max(until, target) });
    }
  };

  await foldTo(until);
  while (stops.length > 0) options.onStop?.(stops.shift()!, view.state);
  audit.buildIndexes();
  // A running ledger keeps indexing into the generations being replaced while this one
  // folds. Promoting a generation behind them would hide the rows it lacks, and the live
  // projector, following the new generation from its position onwards, would never write
  // them: a row missing from the live index for good. So the new generations catch up
  // with the ones they replace first, checked again under the write lock of the switch.
  // (Generations ahead of the log itself, a read-model file from another log, are replaced as they are.)
  for (;;) {
    const target = replacedPosition(tables);
    await foldTo(target);
    const logEndsBefore = position < target;
    const promoted = db.transaction(() => {
      if (!logEndsBefore && replacedPosition(tables) > position) return false;
      if (snapshotGeneration > 0) tables.promote(snapshotsOf(ledgerProjection.name), snapshotGeneration, snapshotTablesOf(ledgerProjection.name));
      view.saveCheckpointsTo(CheckpointStore.on(db));
      view.flush();
      audit.promote();
      return true;
    }).immediate();
    if (promoted) break;
  }
  return { events, position, seconds: Number(process.hrtime.bigint() - started) / 1e9, view: view.state };
};
