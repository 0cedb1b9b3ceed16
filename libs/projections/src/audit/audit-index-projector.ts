import type Database from 'better-sqlite3';
import type { EventFields, RecordedEvent } from '@ledger/event-store';
import type { Projector, ProjectorRebuild } from '../runtime/projector';
import { ReadModelTables } from '../runtime/read-model-tables';
import { LOCKED, writeUnlessLocked } from '../runtime/write-unless-locked';
import { auditEventOf } from './audit-fields';
import { AUDIT_INDEX, auditTableNames, auditTablesOf, createAuditIndexes, createAuditTables, dropOtherAuditVersions } from './audit-index-tables';
import { AuditEventRows, auditStatements, type AuditEventRow, type AuditStatements } from './audit-event-rows';

/** The current generation is behind the events offered: they must be read again from its position. */
export class GenerationBehindError extends Error {
  override readonly name = 'GenerationBehindError';
}

/**
 * Folds the log into the audit index: one row per event, written a page per
 * transaction together with the generation's position (its checkpoint), so rows and
 * checkpoint never disagree. An event is filed under what it names and what it implies
 * (AuditEventRows). The live projector follows whichever generation is
 * current (a CLI rebuild may promote a new one under it); a rebuild writes a fresh
 * generation, optionally without indexes until it is complete (faster bulk load).
 */
export class AuditIndexProjector implements Projector {
  readonly name = AUDIT_INDEX;
  private readonly tables: ReadModelTables;
  private statements: AuditStatements;
  private folded: number;
  /** Makes the rows, filing each event under what the rows before it imply. */
  private readonly rows: AuditEventRows;
  /** A rebuild's load of a fresh generation, indexed once its rows are in (queue, writeQueued). */
  private bulk = false;
  /** A bulk load's rows made by queue(), not written yet. */
  private queued: AuditEventRow[] = [];
  /** A bulk load whose page failed: its caches may hold what was rolled back, so it must start again. */
  private broken = false;

  private constructor(
    private readonly db: Database.Database,
    generation: number,
    private following: boolean,
    private deferIndexes: boolean,
  ) {
    this.tables = new ReadModelTables(db);
    this.rows = new AuditEventRows(
      () => this.statements,
      () => this.following,
    );
    this.statements = this.prepare(generation);
    this.folded = this.tables.position(AUDIT_INDEX, generation) ?? 0;
  }

  /** The index queries read, kept up to date; created (empty, current) if there is none yet. */
  static live(db: Database.Database): AuditIndexProjector {
    const tables = new ReadModelTables(db);
    const generation = db
      .transaction(() => {
        // A file indexed by older code: this version indexes the log again from position 0.
        dropOtherAuditVersions(db);
        const current = tables.current(AUDIT_INDEX);
        if (current) return current.generation;
        const first = tables.allocate(AUDIT_INDEX);
        tables.promote(AUDIT_INDEX, first, auditTablesOf);
        createAuditTables(db, auditTableNames(first));
        createAuditIndexes(db, auditTableNames(first));
        return first;
      })
      .immediate();
    return new AuditIndexProjector(db, generation, true, false);
  }

  /** How a live runner rebuilds the index on `db`: a fresh generation, promoted once caught up. */
  static rebuildOn(db: Database.Database): ProjectorRebuild<AuditIndexProjector> {
    return { fresh: () => AuditIndexProjector.fresh(db), promote: (fresh) => fresh.promote() };
  }

  /** A new generation for a rebuild; with `deferIndexes` its indexes are built by promote(). */
  static fresh(db: Database.Database, options: { deferIndexes?: boolean } = {}): AuditIndexProjector {
    const projector = new AuditIndexProjector(db, new ReadModelTables(db).allocate(AUDIT_INDEX), false, options.deferIndexes === true);
    projector.rows.complete = true;
    projector.bulk = options.deferIndexes === true;
    return projector;
  }

  /**
   * A generation another connection filled and indexed for a rebuild (its audit-index
   * thread), not promoted yet: the rebuild catches it up and promotes it. Token consumers
   * and lease owners are read back from its rows as needed.
   */
  static filled(db: Database.Database, generation: number): AuditIndexProjector {
    return new AuditIndexProjector(db, generation, false, false);
  }

  get position(): number {
    return this.folded;
  }

  get generation(): number {
    return this.statements.generation;
  }

  applyPage(events: readonly RecordedEvent[]): void {
    if (events.length === 0) return;
    if (this.bulk) {
      this.queue(events);
      this.writeQueued({ wait: true });
      return;
    }
    this.assertNotBroken();
    try {
      // The position moves only once rows and checkpoint are committed: a failed commit
      // (a full disk fails at COMMIT more often than at INSERT) leaves it where the disk is.
      this.folded = this.db.transaction(() => this.write((after) => this.rows.after(after, events))).immediate();
    } catch (error) {
      this.forgetUnstored();
      throw error;
    }
  }

  /**
   * A bulk load's next page: its rows are made now, holding no lock (a fresh generation
   * resolves token consumers and lease owners from memory alone), and written by
   * writeQueued().
   */
  queue(events: readonly RecordedEvent[]): void {
    if (!this.bulk) throw new Error(`${AUDIT_INDEX}: only a bulk load queues its rows`);
    this.assertNotBroken();
    const after = this.queued.length > 0 ? this.queued[this.queued.length - 1][0] : this.folded;
    for (const row of this.rows.after(after, events)) this.queued.push(row);
  }

  /** queue() for events read as their fields at AUDIT_DATA_PATHS (the embedded store's readFieldsAfter). */
  queueFields(events: readonly EventFields[]): void {
    this.queue(events.map(auditEventOf));
  }

  /** How many rows queue() made that are not written yet. */
  get queuedRows(): number {
    return this.queued.length;
  }

  /**
   * Writes the queued rows and their position in one transaction. With `wait: false` it
   * writes nothing and answers false at once if another connection holds the write lock
   * (a rebuild's main thread writing a snapshot): the caller makes its next page's rows
   * meanwhile, rather than sleeping on the lock, and writes both together.
   */
  writeQueued(options: { wait: boolean }): boolean {
    if (this.queued.length === 0) return true;
    this.assertNotBroken();
    const rows = this.queued;
    let folded: number | typeof LOCKED;
    try {
      folded = writeUnlessLocked(this.db, () => this.write(() => rows), options);
    } catch (error) {
      this.forgetUnstored();
      throw error;
    }
    if (folded === LOCKED) return false;
    this.folded = folded;
    this.queued = [];
    return true;
  }

  /** After a failed write: what was learned inside the rolled-back transaction was never stored. */
  private forgetUnstored(): void {
    this.rows.forget();
    this.rows.complete = false;
    // A bulk load never looks up what its caches lack: what the failed page taught them cannot be told apart.
    if (this.bulk) this.broken = true;
  }

  private assertNotBroken(): void {
    if (this.broken) throw new Error(`${AUDIT_INDEX}: a page of this bulk load failed; the rebuild starts again`);
  }

  flush(): boolean {
    // Rows and checkpoint are written together as each page is folded.
    return true;
  }

  /** Writes what a bulk load queued and builds the indexes it deferred (before promote, so the switch itself stays short). */
  buildIndexes(): void {
    this.assertNotBroken();
    this.writeQueued({ wait: true });
    if (!this.deferIndexes) return;
    createAuditIndexes(this.db, this.statements.names);
    this.deferIndexes = false;
  }

  /** Makes this generation the one queries read, and follows whichever is current from now on. */
  promote(): void {
    this.buildIndexes();
    this.bulk = false;
    this.rows.complete = false;
    this.db
      .transaction(() => {
        this.tables.promote(AUDIT_INDEX, this.statements.generation, auditTablesOf);
        dropOtherAuditVersions(this.db);
      })
      .immediate();
    this.following = true;
  }

  /** Writes the rows of the events after the position the generation has (`rowsAfter` it) and that position, in the open transaction; returns it. */
  private write(rowsAfter: (position: number) => AuditEventRow[]): number {
    if (this.following) {
      const current = this.tables.current(AUDIT_INDEX);
      if (current && current.generation !== this.statements.generation) {
        const was = this.folded;
        this.statements = this.prepare(current.generation);
        // A generation promoted behind the one this projector was writing lacks the rows
        // between: skipping to this page would lose them for good. Fail the page instead;
        // its follower resubscribes from this generation's position and indexes them.
        if (this.folded < was) {
          throw new GenerationBehindError(
            `${AUDIT_INDEX}: generation ${current.generation} was promoted at position ${this.folded}, behind ${was}; indexing again from there`,
          );
        }
      }
    }
    // Another writer of this generation may have got further: never index an event twice.
    let position = Math.max(this.folded, this.tables.position(AUDIT_INDEX, this.statements.generation) ?? 0);
    const { insertEvent } = this.statements;
    for (const row of rowsAfter(position)) {
      if (row[0] <= position) continue;
      insertEvent.run(row);
      position = row[0];
    }
    this.tables.advance(AUDIT_INDEX, this.statements.generation, position);
    return position;
  }

  private prepare(generation: number): AuditStatements {
    const statements = auditStatements(this.db, generation, this.deferIndexes);
    this.rows.forget();
    this.folded = this.tables?.position(AUDIT_INDEX, generation) ?? 0;
    return statements;
  }
}
