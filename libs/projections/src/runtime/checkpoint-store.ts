import type Database from 'better-sqlite3';
import { StatementCache } from './statement-cache';
import { openReadModelDatabase } from './read-model-database';
import type { SnapshotMeta } from './snapshots/snapshot-tables';
import {
  createCheckpointTables,
  loadEntities,
  writeEntities,
  entitiesRow,
  garbageRow,
  partRow,
  partsRow,
  rowSetNumber,
  WHOLE_PART_CHARS,
  type EntityCheckpoint,
  type StagedCommit,
  type StoredCheckpoint,
  type StoredMeta,
} from './checkpoint-rows';

export { WHOLE_PART_CHARS, type EntityCheckpoint, type StagedCommit, type StoredCheckpoint } from './checkpoint-rows';

/**
 * Checkpoints of in-memory projections, in the read-model database: a projection's
 * data and the position it reflects are written in one transaction (one row for a
 * state saved whole, its entities' rows and one row for one saved entity by entity):
 * they can never disagree after a crash.
 *
 * A state saved entity by entity keeps its rows in a row set of checkpoint_entities (the
 * `name` column), which its meta row names. A full save may also be written over several
 * transactions (beginStaged, writeStaged, commitStaged), so a server saving a big state
 * whole never stops its event loop for the whole of it: the new set becomes the checkpoint
 * only at its commit, and until then it is listed as garbage, as the set it replaces is
 * after it; garbage rows are deleted a step at a time (deleteGarbage), and a crash at any
 * point leaves the last committed checkpoint whole.
 */
export class CheckpointStore {
  private readonly statements: StatementCache;

  private constructor(
    readonly db: Database.Database,
    private readonly ownsDb: boolean,
    private readonly partChars: number = WHOLE_PART_CHARS,
  ) {
    if (!(partChars >= 2)) throw new RangeError(`a whole state's part holds at least 2 characters, not ${partChars}`);
    this.statements = new StatementCache(db);
    if (!db.readonly) createCheckpointTables(db);
  }

  static open(file: string): CheckpointStore {
    return new CheckpointStore(openReadModelDatabase(file), true);
  }

  /** Checkpoints in a database someone else opened (and closes); `wholePartChars`: see WHOLE_PART_CHARS. */
  static on(db: Database.Database, options: { wholePartChars?: number } = {}): CheckpointStore {
    return new CheckpointStore(db, false, options.wholePartChars);
  }

  /** The state saved under `name`, entity by entity or whole, whichever it was saved as last. */
  load<State>(name: string): StoredCheckpoint<State> | null {
    const row = this.loadJson(entitiesRow(name));
    if (row) {
      const { rows, ...meta } = JSON.parse(row.state) as StoredMeta;
      return { position: row.position, state: loadEntities(this.statements, rows ?? name, meta) as State, savedAs: 'entities' };
    }
    const parts = this.parts(name);
    if (parts) {
      const { count } = parts;
      const texts = Array.from({ length: count }, (_, index) => this.loadJson(partRow(name, index))?.state);
      const missing = texts.indexOf(undefined);
      if (missing >= 0) throw new Error(`the checkpoint ${name} lacks part ${missing} of ${count}`);
      return { position: parts.position, state: JSON.parse(texts.join('')) as State, savedAs: 'whole' };
    }
    const whole = this.loadJson(name);
    return whole ? { position: whole.position, state: JSON.parse(whole.state) as State, savedAs: 'whole' } : null;
  }

  /** The row set holding the entities of the checkpoint `name` saved by entities, or null if it is saved whole or not at all. */
  liveRowSet(name: string): string | null {
    const row = this.loadJson(entitiesRow(name));
    return row ? ((JSON.parse(row.state) as StoredMeta).rows ?? name) : null;
  }

  private loadJson(name: string): { position: number; state: string } | null {
    if (!this.hasTable()) return null;
    return this.statements.get<[string], { position: number; state: string }>('SELECT position, state FROM checkpoints WHERE name = ?').get(name) ?? null;
  }

  save<State>(name: string, position: number, state: State, savedAt: Date): void {
    this.saveJson(name, position, JSON.stringify(state), savedAt);
  }

  /**
   * save() of a state already serialised: a whole state in one row, or in parts of
   * `partChars` if it is longer. It supersedes a save of `name` by entities: that save's
   * position row is dropped, so load() reads this one; its row set becomes garbage, deleted
   * later (a CLI rebuild's promotion, where one text is faster than rows, does not delete
   * 225,000 rows).
   */
  saveJson(name: string, position: number, json: string, savedAt: Date): void {
    this.db.transaction(() => {
      this.dropWhole(name);
      if (json.length <= this.partChars) this.writeRow(name, position, json, savedAt);
      else this.writeRow(partsRow(name), position, JSON.stringify({ parts: this.writeParts(name, position, json, savedAt) }), savedAt);
      this.retireLiveRowSet(name);
    })();
  }

  /** Writes `json` in rows of at most `partChars` characters, never cutting a surrogate pair (each part is valid UTF-16, so its UTF-8 is the text's); answers how many. */
  private writeParts(name: string, position: number, json: string, savedAt: Date): number {
    let count = 0;
    for (let from = 0; from < json.length; count++) {
      let to = Math.min(from + this.partChars, json.length);
      const last = json.charCodeAt(to - 1);
      if (to < json.length && last >= 0xd800 && last <= 0xdbff) to--;
      this.writeRow(partRow(name, count), position, json.slice(from, to), savedAt);
      from = to;
    }
    return count;
  }

  /** A state saved whole in parts: its position and how many parts; null if `name` is not saved so. */
  private parts(name: string): { position: number; count: number } | null {
    const row = this.loadJson(partsRow(name));
    return row ? { position: row.position, count: (JSON.parse(row.state) as { parts: number }).parts } : null;
  }

  /** The rows of a state saved whole, in one row or in parts. */
  private dropWhole(name: string): void {
    const parts = this.parts(name);
    if (parts) {
      for (let index = 0; index < parts.count; index++) this.drop(partRow(name, index));
      this.drop(partsRow(name));
    }
    this.drop(name);
  }

  private writeRow(name: string, position: number, json: string, savedAt: Date): void {
    this.statements
      .get(
        `INSERT INTO checkpoints (name, position, state, saved_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET position = excluded.position, state = excluded.state, saved_at = excluded.saved_at`,
      )
      .run(name, position, json, savedAt.toISOString());
  }

  /**
   * Saves a state entity by entity, in one transaction (the caller's, if one is open):
   * a delta writes only what changed, so a big state's checkpoint costs what its last
   * seconds changed, not the whole state (a 1,000,000-event ledger's view is 108 MB of
   * JSON). A full save replaces every entity and the whole-state row of `name`, if any.
   * A delta is written only over the save it was taken against: if another writer saved
   * this name since (a CLI rebuild's promotion, beside the running server), it writes
   * nothing and answers false, and the caller saves the whole state. A full save writes
   * a new row set and deletes the one it replaces in the same transaction.
   */
  saveEntities(name: string, checkpoint: EntityCheckpoint, savedAt: Date): boolean {
    return this.db.transaction(() => {
      if (!checkpoint.full) {
        const row = this.loadJson(entitiesRow(name));
        if (row?.position !== checkpoint.since) return false;
        const rowSet = (JSON.parse(row.state) as StoredMeta).rows ?? name;
        writeEntities(this.statements, rowSet, checkpoint.changed, checkpoint.gone);
        this.writeMeta(name, rowSet, checkpoint.position, checkpoint.meta, savedAt);
        return true;
      }
      const rowSet = this.nextRowSet(name);
      const live = this.liveRowSet(name);
      // The set it replaces is deleted now, and rows an earlier version left under the name
      // itself; the garbage is left to the steps of a live fold, as a set listed there may be
      // one it is writing a step at a time, beside this save.
      for (const replaced of new Set([live ?? name, name])) this.statements.get('DELETE FROM checkpoint_entities WHERE name = ?').run(replaced);
      writeEntities(this.statements, rowSet, checkpoint.changed, new Map());
      this.writeMeta(name, rowSet, checkpoint.position, checkpoint.meta, savedAt);
      this.dropWhole(name);
      return true;
    })();
  }

  /**
   * Begins a full save of `name` written over several transactions: answers the new row
   * set, which writeStaged fills and commitStaged makes the checkpoint. Until then it is
   * listed as garbage, so a save abandoned (a crash, a failure) is deleted like any other.
   */
  beginStaged(name: string): string {
    return this.db.transaction(() => {
      const rowSet = this.nextRowSet(name);
      this.writeGarbage(name, [...this.garbage(name), rowSet]);
      return rowSet;
    })();
  }

  /** Writes entities of a staged save into its row set (in the caller's transaction, if one is open). */
  writeStaged(rowSet: string, collection: string, entities: [key: string, body: string][]): void {
    writeEntities(this.statements, rowSet, new Map([[collection, entities]]), new Map());
  }

  /**
   * Ends a staged save: writes what changed and what went since it began into its row set,
   * and makes that set the checkpoint at `commit.position`, in one transaction. The set it
   * replaces (and a whole-state row) becomes garbage, whoever saved it meanwhile.
   */
  commitStaged(name: string, rowSet: string, commit: StagedCommit, savedAt: Date): void {
    this.db.transaction(() => {
      writeEntities(this.statements, rowSet, commit.changed, commit.gone);
      this.retireLiveRowSet(name);
      this.writeGarbage(
        name,
        this.garbage(name).filter((set) => set !== rowSet),
      );
      this.writeMeta(name, rowSet, commit.position, commit.meta, savedAt);
      this.dropWhole(name);
    })();
  }

  /** Whether `name` has row sets waiting to be deleted. */
  hasGarbage(name: string): boolean {
    return this.garbage(name).length > 0;
  }

  /**
   * Deletes at most `maxRows` rows of the row sets of `name` that are garbage (in the
   * caller's transaction, if one is open), and lists a set no more once it is empty.
   * Answers whether any remain.
   */
  deleteGarbage(name: string, maxRows: number): boolean {
    let budget = maxRows;
    const garbage = this.garbage(name);
    const left: string[] = [];
    for (const rowSet of garbage) {
      if (budget > 0) {
        const deleted = this.statements
          .get(
            `DELETE FROM checkpoint_entities WHERE name = ? AND (collection, key) IN
               (SELECT collection, key FROM checkpoint_entities WHERE name = ? ORDER BY collection, key LIMIT ?)`,
          )
          .run(rowSet, rowSet, budget).changes;
        budget -= deleted;
        if (budget <= 0) left.push(rowSet);
      } else left.push(rowSet);
    }
    if (left.length !== garbage.length) this.writeGarbage(name, left);
    return left.length > 0;
  }

  private writeMeta(name: string, rowSet: string, position: number, meta: SnapshotMeta, savedAt: Date): void {
    this.writeRow(entitiesRow(name), position, JSON.stringify({ ...meta, rows: rowSet } satisfies StoredMeta), savedAt);
  }

  /**
   * The live row set of `name`, if any, becomes garbage, and its meta row goes; so do rows
   * an earlier version left under the name itself (its whole save kept them for the next).
   */
  private retireLiveRowSet(name: string): void {
    const live = this.liveRowSet(name);
    if (live !== null) this.drop(entitiesRow(name));
    const legacy = this.statements.get('SELECT 1 FROM checkpoint_entities WHERE name = ? LIMIT 1').get(name) !== undefined ? name : null;
    const garbage = this.garbage(name);
    const retired = [live, legacy].filter((set): set is string => set !== null && !garbage.includes(set));
    if (retired.length > 0) this.writeGarbage(name, [...garbage, ...new Set(retired)]);
  }

  /** A row set of `name` no set has used: one past the highest live or listed as garbage. */
  private nextRowSet(name: string): string {
    const used = [this.liveRowSet(name), ...this.garbage(name)].map((set) => (set === null ? 0 : rowSetNumber(name, set)));
    return `${name}#${Math.max(0, ...used) + 1}`;
  }

  private garbage(name: string): string[] {
    const row = this.loadJson(garbageRow(name));
    return row ? (JSON.parse(row.state) as string[]) : [];
  }

  private writeGarbage(name: string, rowSets: string[]): void {
    if (rowSets.length === 0) this.drop(garbageRow(name));
    // Bookkeeping, not a save: no position, no time.
    else this.writeRow(garbageRow(name), 0, JSON.stringify(rowSets), new Date(0));
  }

  drop(name: string): void {
    this.statements.get('DELETE FROM checkpoints WHERE name = ?').run(name);
  }

  close(): void {
    if (this.ownsDb) this.db.close();
  }

  private hasTable(): boolean {
    return this.statements.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get() !== undefined;
  }
}
