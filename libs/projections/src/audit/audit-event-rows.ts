import type Database from 'better-sqlite3';
import { parseToken } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { deriveAuditFields, leaseGrantOf, ownerlessLeaseOf, type LeaseRef } from './audit-fields';
import { auditTableNames, createAuditIndexes, createAuditTables, type AuditTableNames } from './audit-index-tables';
import { auditTypeValue } from './audit-type-codes';

type Consumer = { controller: string; model: string };

/** A row of the events table, in its column order. */
export type AuditEventRow = [
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

/** One generation's tables of the audit index, and the statements that write and look up its rows. */
export interface AuditStatements {
  generation: number;
  names: AuditTableNames;
  insertEvent: Database.Statement<[AuditEventRow]>;
  /** The consumer of a token: the first row naming both (the event that did, or one filed under it since). */
  findConsumer: Database.Statement<[token: string], Consumer>;
  /** The first grant of a lease on an address: its row names the owner. */
  leaseGrant: Database.Statement<[ip: string, leaseId: string], [leaseOwner: string]>;
}

/** A generation's tables, created if need be (its indexes too unless `deferIndexes`), and their statements. */
export const auditStatements = (db: Database.Database, generation: number, deferIndexes: boolean): AuditStatements => {
  const names = auditTableNames(generation);
  createAuditTables(db, names);
  if (!deferIndexes) createAuditIndexes(db, names);
  return {
    generation,
    names,
    insertEvent: db.prepare<[AuditEventRow]>(`INSERT INTO "${names.events}" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    findConsumer: db.prepare<[string], Consumer>(
      `SELECT controller, model FROM "${names.events}" WHERE token = ? AND controller IS NOT NULL AND model IS NOT NULL ORDER BY position LIMIT 1`,
    ),
    // The address's rows (ip index), oldest first: a few on most addresses.
    leaseGrant: db
      .prepare<[string, string], [string]>(`SELECT lease_owner FROM "${names.events}" WHERE ip = ? AND lease_id = ? ORDER BY position LIMIT 1`)
      .raw(true),
  };
};

/** Tokens whose consumer is kept in memory; older ones are looked up in the index's rows. */
const TOKEN_CACHE = 200_000;
/** Leases whose owner is kept in memory; older ones are looked up in the index's rows. */
const LEASE_CACHE = 200_000;

const leaseKey = (lease: LeaseRef): string => `${lease.leaseId} ${lease.ip}`;

/**
 * Makes the audit index's rows: an event is filed under what it names and, through the rows
 * before it, under what it implies: a token's consumer (the row of the event that named
 * both), a lease's owner (the row of its first grant). What it learns is kept in memory,
 * and looked up in the generation's rows (`statements`) when not.
 */
export class AuditEventRows {
  private readonly tokens = new Map<string, Consumer | null>();
  /** Lease (leaseKey) -> the token its first grant named. */
  private readonly leases = new Map<string, string | null>();
  /** The caches hold every token and lease of the generation (a fresh one, never evicted): a miss needs no lookup. */
  complete = false;

  /** `bounded`: whether the caches keep a bounded number (a live index; a rebuild, which sees every token once, keeps them all). */
  constructor(
    private readonly statements: () => AuditStatements,
    private readonly bounded: () => boolean,
  ) {}

  /** Forgets what the caches learned (another generation, or a transaction rolled back). */
  forget(): void {
    this.tokens.clear();
    this.leases.clear();
  }

  /**
   * The events table's rows for the events after `after`, in its column order; learns
   * token consumers and lease grants as it goes (their rows record them).
   */
  after(after: number, events: readonly RecordedEvent[]): AuditEventRow[] {
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
    const row = this.statements().findConsumer.get(token);
    this.remember(token, row ?? null);
    return row ?? null;
  }

  private remember(token: string, consumer: Consumer | null): void {
    if (this.bounded() && this.tokens.size >= TOKEN_CACHE) this.tokens.delete(this.tokens.keys().next().value as string);
    this.tokens.set(token, consumer);
  }

  /** The token a lease was granted to, or null if this generation never saw its grant. */
  private leaseOwner(lease: LeaseRef): string | null {
    const key = leaseKey(lease);
    const cached = this.leases.get(key);
    if (cached !== undefined) return cached;
    if (this.complete) return null;
    const owner = this.statements().leaseGrant.get(lease.ip, lease.leaseId)?.[0] ?? null;
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
    if (this.bounded() && this.leases.size >= LEASE_CACHE) this.leases.delete(this.leases.keys().next().value as string);
    this.leases.set(key, token);
  }
}
