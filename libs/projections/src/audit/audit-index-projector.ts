import type Database from 'better-sqlite3';
import { parseToken } from '@ledger/domain';
import type { EventFields, RecordedEvent } from '@ledger/event-store';
import type { Projector, ProjectorRebuild } from '../runtime/projector';
import { ReadModelTables } from '../runtime/read-model-tables';
import { LOCKED, writeUnlessLocked } from '../runtime/write-unless-locked';
import { auditEventOf, deriveAuditFields, leaseGrantOf, ownerlessLeaseOf, type LeaseRef } from './audit-fields';
import {
  AUDIT_INDEX,
  auditTableNames,
  auditTablesOf,
  createAuditIndexes,
  createAuditTables,
  dropOtherAuditVersions,
  type AuditTableNames,
} from './audit-index-tables';
import { auditTypeValue } from './audit-type-codes';

type Consumer = { controller: string; model: string };

/** A row of the events table, in its column order. */
type AuditEventRow = [
  position: number,
  type: number | string,
  recordedAt: string,
  nodeId: string | null,
  token: string | null,
  ip: string | null,
  controller: string | null,
  model: string | null,
  leaseId: string | null,
  leaseOwner: string | null,
];

interface Statements {
  generation: number;
  names: AuditTableNames;
  insertEvent: Database.Statement;
  /** The consumer of a token: the first row naming both (the event that did, or one filed under it since). */
  findConsumer: Database.Statement;
  /** The first grant of a lease on an address: its row names the owner. */
  leaseGrant: Database.Statement;
}

/** The current generation is behind the events offered: they must be read again from its position. */
export class GenerationBehindError extends Error {
  override readonly name = 'GenerationBehindError';
}

/** Tokens whose consumer is kept in memory; older ones are looked up in the index's rows. */
const TOKEN_CACHE = 200_000;
/** Leases whose owner is kept in memory; older ones are looked up in the index's rows. */
const LEASE_CACHE = 200_000;

const leaseKey = (lease: LeaseRef): string => `${lease.leaseId} ${lease.ip}`;

/**
 * Folds the log into the audit index: one row per event, written a page per
 * transaction together with the generation's position (its checkpoint), so rows and
 * checkpoint never disagree. An event is filed under what it names and, through the rows
 * before it, under what it implies: a token's consumer (the row of the event that named
 * both), a lease's owner (the row of its first grant). The live projector follows whichever generation is
 * current (a CLI rebuild may promote a new one under it); a rebuild writes a fresh
 * generation, optionally without indexes until it is complete (faster bulk load).
 */
export class AuditIndexProjector implements Projector {
  readonly name = AUDIT_INDEX;
  private readonly tables: ReadModelTables;
  private statements: Statements;
  private folded: number;
  private readonly tokens = new Map<string, Consumer | null>();
  /** Lease (leaseKey) -> the token its first grant named. */
  private readonly leases = new Map<string, string | null>();
  /** A rebuild's load of a fresh generation, indexed once its rows are in (queue, writeQueued). */
  private bulk = false;
  /** A bulk load's rows made by queue(), not written yet. */
  private queued: AuditEventRow[] = [];
  /** The caches hold every token and lease of the generation (a fresh one, never evicted): a miss needs no lookup. */
  private complete = false;
  /** A bulk load whose page failed: its caches may hold what was rolled back, so it must start again. */
  private broken = false;

  private constructor(
    private readonly db: Database.Database,
    generation: number,
    private following: boolean,
    private deferIndexes: boolean,
  ) {
    this.tables = new ReadModelTables(db);
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
    projector.complete = true;
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
      this.folded = this.db.transaction(() => this.write((after) => this.rowsAfter(after, events))).immediate();
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
    for (const row of this.rowsAfter(after, events)) this.queued.push(row);
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
    this.tokens.clear();
    this.leases.clear();
    this.complete = false;
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
    this.complete = false;
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

  /**
   * The events table's rows for the events after `after`, in its column order; learns
   * token consumers and lease grants as it goes (their rows record them).
   */
  private rowsAfter(after: number, events: readonly RecordedEvent[]): AuditEventRow[] {
    const rows: AuditEventRow[] = [];
    for (const event of events) {
      if (event.position <= after) continue;
      const fields = deriveAuditFields(event);
      let { nodeId, token, controller, model } = fields;
      const grant = leaseGrantOf(event, fields);
      if (grant !== null) this.recordLeaseOwner(grant);
      const lease = ownerlessLeaseOf(event, fields);
      if (lease !== null) {
        // A renewal, release or expiry: the lease's owner, as the live stream files it
        // (auditFieldsInView), from what this generation has indexed, never the ledger view.
        token = this.leaseOwner(lease);
        if (token !== null) {
          nodeId ??= parseToken(token)?.nodeId ?? null;
          ({ controller, model } = this.tokenConsumer(token) ?? { controller: null, model: null });
        }
      } else if (fields.token !== null) {
        if (controller !== null && model !== null) {
          if (this.tokenConsumer(fields.token) === null) this.remember(fields.token, { controller, model });
        } else {
          const consumer = this.tokenConsumer(fields.token);
          if (consumer) ({ controller, model } = consumer);
        }
      }
      rows.push([
        event.position,
        auditTypeValue(event.type),
        event.recordedAt,
        nodeId,
        token,
        fields.ip,
        controller,
        model,
        grant?.leaseId ?? null,
        grant?.token ?? null,
      ]);
    }
    return rows;
  }

  private tokenConsumer(token: string): Consumer | null {
    const cached = this.tokens.get(token);
    if (cached !== undefined) return cached;
    if (this.complete) return null;
    const row = this.statements.findConsumer.get(token) as Consumer | undefined;
    this.remember(token, row ?? null);
    return row ?? null;
  }

  private remember(token: string, consumer: Consumer | null): void {
    // A live index keeps a bounded cache; a rebuild, which sees every token once, keeps them all.
    if (this.following && this.tokens.size >= TOKEN_CACHE) this.tokens.delete(this.tokens.keys().next().value as string);
    this.tokens.set(token, consumer);
  }

  /** The token a lease was granted to, or null if this generation never saw its grant. */
  private leaseOwner(lease: LeaseRef): string | null {
    const key = leaseKey(lease);
    const cached = this.leases.get(key);
    if (cached !== undefined) return cached;
    if (this.complete) return null;
    const owner = (this.statements.leaseGrant.get(lease.ip, lease.leaseId) as [string] | undefined)?.[0] ?? null;
    this.rememberLease(key, owner);
    return owner;
  }

  /** The first grant of a lease names its owner for good (as the ledger view keeps the first); its row records it. */
  private recordLeaseOwner(grant: LeaseRef & { token: string }): void {
    const key = leaseKey(grant);
    if (typeof this.leases.get(key) === 'string') return;
    if (this.leaseOwner(grant) === null) this.rememberLease(key, grant.token);
  }

  private rememberLease(key: string, token: string | null): void {
    if (this.following && this.leases.size >= LEASE_CACHE) this.leases.delete(this.leases.keys().next().value as string);
    this.leases.set(key, token);
  }

  private prepare(generation: number): Statements {
    const names = auditTableNames(generation);
    createAuditTables(this.db, names);
    if (!this.deferIndexes) createAuditIndexes(this.db, names);
    this.tokens.clear();
    this.leases.clear();
    this.folded = this.tables?.position(AUDIT_INDEX, generation) ?? 0;
    return {
      generation,
      names,
      insertEvent: this.db.prepare(`INSERT INTO "${names.events}" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      findConsumer: this.db.prepare(
        `SELECT controller, model FROM "${names.events}" WHERE token = ? AND controller IS NOT NULL AND model IS NOT NULL ORDER BY position LIMIT 1`,
      ),
      // The address's rows (ip index), oldest first: a few on most addresses.
      leaseGrant: this.db.prepare(`SELECT lease_owner FROM "${names.events}" WHERE ip = ? AND lease_id = ? ORDER BY position LIMIT 1`).raw(true),
    };
  }
}
