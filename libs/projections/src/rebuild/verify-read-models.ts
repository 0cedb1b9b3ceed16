import type Database from 'better-sqlite3';
import type { EventStore } from '@ledger/event-store';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import type { LedgerViewState } from '../ledger-view/views';
import { AUDIT_INDEX, auditTableNames, otherAuditVersions } from '../audit/audit-index-tables';
import { auditTypeName } from '../audit/audit-type-codes';
import { CheckpointStore } from '../runtime/checkpoint-store';
import { ReadModelTables } from '../runtime/read-model-tables';
import { SnapshotReader } from '../runtime/snapshots/snapshot-reader';
import { describeDifference, diffValues } from './diff-values';
import { rebuildReadModels, type FoldProgress } from './rebuild-read-models';

export interface VerifyReadModelsOptions {
  store: EventStore;
  /** The live read-model database, opened read-only. */
  live: Database.Database;
  /** An empty scratch database to rebuild into. */
  scratch: Database.Database;
  /** How many of the live snapshots to check against the fold (spread over the log, the newest always); Infinity: all. */
  snapshotSamples?: number;
  /** Stop listing differences after this many per read model. */
  maxDifferences?: number;
  onProgress?: (progress: FoldProgress) => void;
}

export interface Verification {
  ok: boolean;
  /** Events folded from zero to check against. */
  events: number;
  position: number;
  /** Readable lines, one per difference (or per problem), empty when ok. */
  differences: string[];
  /**
   * What could not be compared yet, and why: not a difference. A running ledger writes its
   * first checkpoint a checkpoint interval after its first events; until then there is
   * nothing live to hold the rebuild against, and a healthy ledger must not read as broken.
   */
  notYetCompared: string[];
  /** viewAt is null when the live view had no checkpoint to compare. */
  checked: { viewAt: number | null; auditRowsTo: number; auditRows: number; snapshots: number[] };
}

/** Up to `count` of `positions`, spread evenly, the newest always included. */
const spread = (positions: number[], count: number): number[] => {
  if (positions.length <= count) return positions;
  if (count <= 0) return [];
  const picked = new Set<number>([positions[positions.length - 1]]);
  for (let i = 0; picked.size < count && i < count; i++) picked.add(positions[Math.floor((i * (positions.length - 1)) / Math.max(1, count - 1))]);
  return [...picked].sort((a, b) => a - b);
};

const AUDIT_COLUMNS = ['position', 'type', 'recorded_at', 'node_id', 'token', 'ip', 'controller', 'model', 'lease_id', 'lease_owner'];

/**
 * Invariant 8 on real files: rebuilds every read model from position 0 into a scratch
 * database and compares it with the live one, at the positions the live one reflects:
 * the ledger view at its checkpoint, the audit index row by row up to its position, and
 * live snapshots against the fold stopped exactly there. The live file is only read,
 * inside one read transaction (a consistent view, even while the ledger writes).
 */
export const verifyReadModels = async (options: VerifyReadModelsOptions): Promise<Verification> => {
  const { live, scratch, store } = options;
  const max = options.maxDifferences ?? 20;
  live.exec('BEGIN');
  try {
    const liveView = CheckpointStore.on(live).load<LedgerViewState>(ledgerProjection.name);
    const liveAudit = new ReadModelTables(live).current(AUDIT_INDEX);
    const differences: string[] = [];
    const notYetCompared: string[] = [];
    const noCheckpointYet =
      'no checkpoint yet (a running ledger writes its first one a checkpoint interval after its first events, and one at every graceful stop)';
    if (!liveView) notYetCompared.push(`the ${ledgerProjection.name}: ${noCheckpointYet}`);
    const older = otherAuditVersions(live);
    if (!liveAudit && older.length > 0) {
      notYetCompared.push(
        `the ${AUDIT_INDEX}: the read models hold ${older.join(', ')}, indexed by an older version of the ledger; it indexes the log again when it next starts (or run ledger-cli rebuild)`,
      );
    } else if (!liveAudit) notYetCompared.push(`the ${AUDIT_INDEX}: ${noCheckpointYet}`);
    const viewAt = liveView?.position ?? 0;
    const auditTo = liveAudit?.position ?? 0;
    const liveSnapshots = new SnapshotReader(live, ledgerProjection.name);
    const snapshots = spread(
      liveSnapshots.positions().filter((position) => position <= Math.max(viewAt, auditTo)),
      options.snapshotSamples ?? 4,
    );

    const rebuilt = await rebuildReadModels({
      store,
      db: scratch,
      // Live snapshots are checked against the fold itself, so the scratch copy needs none of its own.
      snapshotEvery: 0,
      until: Math.max(viewAt, auditTo),
      stops: [...new Set([viewAt, ...snapshots])],
      onProgress: options.onProgress,
      onStop: (position, view) => {
        if (liveView && position === viewAt) {
          differences.push(...diffValues(liveView.state, view, max).map((d) => `view at ${position}: ${describeDifference(d)}`));
        }
        if (snapshots.includes(position)) {
          const snapshot = liveSnapshots.load(position, ledgerProjection.initialState);
          if (!snapshot) differences.push(`snapshot at ${position}: listed but unreadable`);
          else differences.push(...diffValues(snapshot, view, max).map((d) => `snapshot at ${position}: ${describeDifference(d)}`));
        }
      },
    });

    const auditRows = liveAudit ? compareAuditRows(live, liveAudit.generation, scratch, auditTo, max, differences) : 0;
    return {
      ok: differences.length === 0,
      events: rebuilt.events,
      position: rebuilt.position,
      differences,
      notYetCompared,
      checked: { viewAt: liveView ? viewAt : null, auditRowsTo: auditTo, auditRows, snapshots },
    };
  } finally {
    live.exec('COMMIT');
  }
};

/** Walks both audit indexes in position order, row against row; returns the rows compared. */
const compareAuditRows = (live: Database.Database, liveGeneration: number, scratch: Database.Database, to: number, max: number, out: string[]): number => {
  const scratchGeneration = new ReadModelTables(scratch).current(AUDIT_INDEX)!.generation;
  const select = `SELECT ${AUDIT_COLUMNS.join(', ')} FROM "%TABLE%" WHERE position <= ? ORDER BY position`;
  // Types compared and reported by name: a code and the name it stands for are the same row.
  function* rowsOf(db: Database.Database, generation: number): Generator<unknown[]> {
    for (const row of db
      .prepare(select.replace('%TABLE%', auditTableNames(generation).events))
      .raw(true)
      .iterate(to) as IterableIterator<unknown[]>) {
      row[1] = auditTypeName(row[1] as number | string);
      yield row;
    }
  }
  const liveRows = rowsOf(live, liveGeneration);
  const rebuiltRows = rowsOf(scratch, scratchGeneration);
  let compared = 0;
  let found = 0;
  const report = (line: string) => {
    if (found++ < max) out.push(`audit index: ${line}`);
  };
  // A merge on position, so one missing row is one difference, not every row after it.
  let a = liveRows.next();
  let b = rebuiltRows.next();
  while (!a.done || !b.done) {
    compared++;
    const livePosition = a.done ? Infinity : (a.value[0] as number);
    const rebuiltPosition = b.done ? Infinity : (b.value[0] as number);
    if (livePosition < rebuiltPosition) {
      report(`live row at position ${livePosition} is not in the rebuilt index`);
      a = liveRows.next();
    } else if (rebuiltPosition < livePosition) {
      report(`row at position ${rebuiltPosition} is missing from the live index`);
      b = rebuiltRows.next();
    } else {
      const [x, y] = [a.value as unknown[], b.value as unknown[]];
      const columns = AUDIT_COLUMNS.filter((_, i) => x[i] !== y[i]);
      if (columns.length > 0) {
        const first = AUDIT_COLUMNS.indexOf(columns[0]);
        report(`row at position ${livePosition} differs in ${columns.join(', ')}: live ${JSON.stringify(x[first])}, rebuilt ${JSON.stringify(y[first])}`);
      }
      a = liveRows.next();
      b = rebuiltRows.next();
    }
  }
  if (found > max) out.push(`audit index: ... and ${found - max} more differing rows`);
  return compared;
};
