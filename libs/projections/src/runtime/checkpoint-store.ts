import type Database from 'better-sqlite3';
import { StatementCache } from './statement-cache';
import { openReadModelDatabase } from './read-model-database';
import type { SnapshotMeta } from './snapshots/snapshot-tables';
import type { ChangedEntities, GoneEntities } from './snapshots/snapshot-rows';

export interface StoredCheckpoint<State> {
  position: number;
  state: State;
  /** How it was saved: by entities (saveEntities; the next save may be a delta) or whole (save, saveJson, or an earlier version). */
  savedAs: 'entities' | 'whole';
}

/** A state saved entity by entity: all of it, or what changed since its last save. */
export interface EntityCheckpoint {
  position: number;
  /** The state's plain fields and the names of its collections. */
  meta: SnapshotMeta;
  /** Every entity of the state (the stored ones are replaced), or only the changes since the last save of this name. */
  full: boolean;
  /** For a delta: the position of the save it is taken against, which must still be the stored one. */
  since: number | null;
  /** Per collection, [key, JSON] of the entities to store. */
  changed: ChangedEntities;
  /** Per collection, the keys gone since the last save (a delta only). */
  gone: GoneEntities;
}

/** The checkpoints row of a state saved whole in parts: its position and how many parts (`{"parts":N}`). */
const partsRow = (name: string): string => `${name}/parts`;
/** The checkpoints row holding part `index` of a state saved whole in parts (its text cut at `partChars`). */
const partRow = (name: string, index: number): string => `${name}/part/${index}`;

/**
 * Characters of a whole state's text one row holds. A bigger text (a 1,000,000-event ledger's
 * view: 108 MB) is written in parts: a write binds, and SQLite copies, a part at a time into
 * blocks malloc reuses, never a fresh block the size of the state (on a VM, the first touch of
 * fresh memory cost 0.8-9 ms a megabyte, moving the promotion's save between 0.23 and 2.8 s).
 */
export const WHOLE_PART_CHARS = 1_048_576;

/** The checkpoints row of a state saved entity by entity: its position, its meta, and the row set holding its entities. */
const entitiesRow = (name: string): string => `${name}/entities`;
/** The checkpoints row listing the row sets of `name` that are not its checkpoint (any more, or yet): their rows are deleted a step at a time. */
const garbageRow = (name: string): string => `${name}/garbage`;
/** The row sets of `name` are `name#1`, `name#2`...; a checkpoint saved before row sets keeps its rows under `name`. */
const rowSetNumber = (name: string, set: string): number => (set.startsWith(`${name}#`) ? Number(set.slice(name.length + 1)) || 0 : 0);

/** The meta a checkpoint saved entity by entity stores: the state's plain fields and collections, and where its rows are (absent: under its own name). */
type StoredMeta = SnapshotMeta & { rows?: string };

/** What commitStaged writes last: the changes since the staged save began, and the position and meta it saves. */
export interface StagedCommit {
  position: number;
  meta: SnapshotMeta;
  changed: ChangedEntities;
  gone: GoneEntities;
}

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
    if (!db.readonly) {
      db.exec(`CREATE TABLE IF NOT EXISTS checkpoints (
        name TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        state TEXT NOT NULL,
        saved_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS checkpoint_entities (
        name       TEXT NOT NULL,
        collection TEXT NOT NULL,
        key        TEXT NOT NULL,
        body       TEXT NOT NULL,
        PRIMARY KEY (name, collection, key)
      ) WITHOUT ROWID`);
    }
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
      return { position: row.position, state: this.loadEntities(rows ?? name, meta) as State, savedAs: 'entities' };
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

  private loadEntities(rowSet: string, meta: SnapshotMeta): Record<string, unknown> {
    const state: Record<string, unknown> = { ...meta.scalars };
    const collections = new Map<string, Record<string, unknown>>();
    for (const collection of meta.collections) collections.set(collection, (state[collection] = {}) as Record<string, unknown>);
    const rows = this.statements.get('SELECT collection, key, body FROM checkpoint_entities WHERE name = ?').raw(true).iterate(rowSet) as IterableIterator<
      [string, string, string]
    >;
    for (const [collection, key, body] of rows) {
      const entities = collections.get(collection);
      if (entities) entities[key] = JSON.parse(body);
    }
    return state;
  }

  private loadJson(name: string): { position: number; state: string } | null {
    if (!this.hasTable()) return null;
    return (this.statements.get('SELECT position, state FROM checkpoints WHERE name = ?').get(name) as { position: number; state: string } | undefined) ?? null;
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
        this.writeEntities(rowSet, checkpoint.changed, checkpoint.gone);
        this.writeMeta(name, rowSet, checkpoint.position, checkpoint.meta, savedAt);
        return true;
      }
      const rowSet = this.nextRowSet(name);
      const live = this.liveRowSet(name);
      // The set it replaces is deleted now, and rows an earlier version left under the name
      // itself; the garbage is left to the steps of a live fold, as a set listed there may be
      // one it is writing a step at a time, beside this save.
      for (const replaced of new Set([live ?? name, name])) this.statements.get('DELETE FROM checkpoint_entities WHERE name = ?').run(replaced);
      this.writeEntities(rowSet, checkpoint.changed, new Map());
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
    this.writeEntities(rowSet, new Map([[collection, entities]]), new Map());
  }

  /**
   * Ends a staged save: writes what changed and what went since it began into its row set,
   * and makes that set the checkpoint at `commit.position`, in one transaction. The set it
   * replaces (and a whole-state row) becomes garbage, whoever saved it meanwhile.
   */
  commitStaged(name: string, rowSet: string, commit: StagedCommit, savedAt: Date): void {
    this.db.transaction(() => {
      this.writeEntities(rowSet, commit.changed, commit.gone);
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

  private writeEntities(rowSet: string, changed: ChangedEntities, gone: GoneEntities): void {
    const upsert = this.statements.get(
      `INSERT INTO checkpoint_entities (name, collection, key, body) VALUES (?, ?, ?, ?)
       ON CONFLICT(name, collection, key) DO UPDATE SET body = excluded.body`,
    );
    const remove = this.statements.get('DELETE FROM checkpoint_entities WHERE name = ? AND collection = ? AND key = ?');
    for (const [collection, keys] of gone) for (const key of keys) remove.run(rowSet, collection, key);
    // In key order within each collection, as changedEntities gives them: rows land at the B-tree's end on a full save.
    for (const collection of [...changed.keys()].sort()) {
      for (const [key, body] of changed.get(collection)!) upsert.run(rowSet, collection, key, body);
    }
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
