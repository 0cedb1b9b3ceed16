import type Database from 'better-sqlite3';
import { eventsAt, type EventStore, type RecordedEvent } from '@ledger/event-store';
import { ReadModelTables } from '../runtime/read-model-tables';
import { lastPositionWhere } from '../time-travel/point-in-log';
import { AUDIT_INDEX, auditTableNames } from './audit-index-tables';
import { auditTypeValues } from './audit-type-codes';
import { summarise } from './event-summaries';
import { deriveAuditFields } from './audit-fields';
import { envelopeJson } from './envelope-json';

export interface AuditFilter {
  nodeId?: string;
  token?: string;
  ip?: string;
  controller?: string;
  model?: string;
  types?: string[];
  /** Recorded at or after / at or before these times. */
  from?: Date;
  to?: Date;
  /** Events after this global position (paging). */
  after?: number;
  /** Events at or before this global position. */
  until?: number;
  limit: number;
}

export interface AuditPage {
  /** Each event's envelope (JSON text, envelopeJson), oldest first. */
  events: string[];
  /** Pass as `after` for the next page; null when this page is the last. */
  nextAfter: number | null;
  /** The log position the index reflects. */
  position: number;
}

export interface TimelineEntry {
  position: number;
  at: string;
  type: string;
  stream: string;
  actor: string | null;
  token: string | null;
  summary: string;
  correlationId: string | null;
}

export interface Timeline {
  nodeId: string;
  entries: TimelineEntry[];
  nextAfter: number | null;
  position: number;
}

/** What a timeline reads of a row: the rest (stream, type, time, actor, correlation id) is in the event, read from the log. */
type Row = {
  position: number;
  node_id: string | null;
  token: string | null;
};

const ROW = 'position, node_id, token';
const iso = (time: Date) => time.toISOString();

/** Queries over the current generation of the audit index; the events its rows list are read from `log`, by position. */
export class AuditIndexReader {
  private readonly tables: ReadModelTables;

  constructor(
    private readonly db: Database.Database,
    private readonly log: EventStore,
  ) {
    this.tables = new ReadModelTables(db);
  }

  /** The log position the index reflects (0 if it was never built). */
  position(): number {
    return this.tables.current(AUDIT_INDEX)?.position ?? 0;
  }

  async events(filter: AuditFilter): Promise<AuditPage> {
    const current = this.tables.current(AUDIT_INDEX);
    if (!current) return { events: [], nextAfter: null, position: 0 };
    const table = auditTableNames(current.generation).events;
    const where: string[] = [];
    const values: unknown[] = [];
    const [low, high] = await this.positionRange(table, current.position, filter);
    where.push('position > ?', 'position <= ?');
    values.push(low, high);
    const equal = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = ?`);
      values.push(value);
    };
    equal('node_id', filter.nodeId);
    equal('token', filter.token);
    equal('ip', filter.ip);
    equal('controller', filter.controller);
    equal('model', filter.model);
    if (filter.types?.length) {
      const stored = filter.types.flatMap(auditTypeValues);
      where.push(`type IN (${stored.map(() => '?').join(', ')})`);
      values.push(...stored);
    }
    // Exact on the rows returned even if a stepped-back clock blurred the range.
    if (filter.from) {
      where.push('recorded_at >= ?');
      values.push(iso(filter.from));
    }
    if (filter.to) {
      where.push('recorded_at <= ?');
      values.push(iso(filter.to));
    }
    const positions = this.db
      .prepare(`SELECT position FROM "${table}" WHERE ${where.join(' AND ')} ORDER BY position LIMIT ?`)
      .pluck()
      .all(...values, filter.limit + 1) as number[];
    const more = positions.length > filter.limit;
    const page = more ? positions.slice(0, filter.limit) : positions;
    const events = await eventsAt(this.log, page);
    return { events: events.map(envelopeJson), nextAfter: more ? page[page.length - 1] : null, position: current.position };
  }

  /**
   * A node's story in order: every event about it (its stream, its refusals, its
   * tokens), and the events of IP addresses while one of its allocations held them.
   */
  async timeline(nodeId: string, options: { after?: number; until?: number; limit: number }): Promise<Timeline | null> {
    const current = this.tables.current(AUDIT_INDEX);
    if (!current) return null;
    const table = auditTableNames(current.generation).events;
    const after = options.after ?? 0;
    const until = Math.min(options.until ?? current.position, current.position);
    const own = this.db
      .prepare(`SELECT ${ROW} FROM "${table}" WHERE node_id = ? AND position > ? AND position <= ? ORDER BY position LIMIT ?`)
      .all(nodeId, after, until, options.limit + 1) as Row[];
    if (own.length === 0 && after === 0 && !this.db.prepare(`SELECT 1 FROM "${table}" WHERE node_id = ? LIMIT 1`).get(nodeId)) return null;
    const windowEnd = own.length > options.limit ? own[options.limit - 1].position : until;
    const rows = [...own.slice(0, options.limit), ...this.heldIpRows(table, nodeId, after, windowEnd)].sort((a, b) => a.position - b.position);
    const page = rows.slice(0, options.limit);
    const more = own.length > options.limit || rows.length > options.limit;
    const events = await eventsAt(
      this.log,
      page.map((row) => row.position),
    );
    // The indexed token is the event's own or, for a lease's renewal, release or expiry, its owner's.
    const entries = page.map((row, i) => ({ ...timelineEntryOf(events[i]), token: row.token }));
    return { nodeId, entries, nextAfter: more && page.length > 0 ? page[page.length - 1].position : null, position: current.position };
  }

  /** Events on IP addresses the node's allocations held, not otherwise about the node, while they held them. */
  private heldIpRows(table: string, nodeId: string, after: number, windowEnd: number): Row[] {
    const ips = this.db
      .prepare(`SELECT DISTINCT ip FROM "${table}" WHERE node_id = ? AND ip IS NOT NULL AND position <= ?`)
      .raw(true)
      .all(nodeId, windowEnd) as [string][];
    const rows: Row[] = [];
    for (const [ip] of ips) {
      let holder: string | null = null;
      const ipRows = this.db
        .prepare(`SELECT ${ROW} FROM "${table}" WHERE ip = ? AND position <= ? ORDER BY position`)
        .iterate(ip, windowEnd) as IterableIterator<Row>;
      for (const row of ipRows) {
        if (row.node_id !== null) holder = row.node_id;
        else if (holder === nodeId && row.position > after) rows.push(row);
      }
    }
    return rows;
  }

  /**
   * Which streams hold the history of a node, an address or a model up to `until`, for
   * time travel that folds only those: distinct values of one indexed column where
   * another equals the key (an index range each).
   */
  scopeOf(key: { nodeId: string } | { ip: string } | { controller: string; model: string }, until: number): { nodeIds: string[]; ips: string[] } {
    const current = this.tables.current(AUDIT_INDEX);
    if (!current) return { nodeIds: [], ips: [] };
    const table = auditTableNames(current.generation).events;
    const [where, values] =
      'nodeId' in key ? ['node_id = ?', [key.nodeId]] : 'ip' in key ? ['ip = ?', [key.ip]] : ['controller = ? AND model = ?', [key.controller, key.model]];
    const distinct = (column: string) =>
      (
        this.db
          .prepare(`SELECT DISTINCT ${column} FROM "${table}" WHERE ${where} AND ${column} IS NOT NULL AND position <= ?`)
          .raw(true)
          .all(...values, until) as [string][]
      ).map(([value]) => value);
    // A node's scope is the node itself and its addresses: one index range, not two.
    return { nodeIds: 'nodeId' in key ? [key.nodeId] : distinct('node_id'), ips: distinct('ip') };
  }

  /** The position range a filter's positions and times come to: (low, high]. */
  private async positionRange(table: string, head: number, filter: AuditFilter): Promise<[number, number]> {
    let low = filter.after ?? 0;
    let high = Math.min(filter.until ?? head, head);
    const firstAtOrAfter = this.db.prepare(`SELECT position, recorded_at AS recordedAt FROM "${table}" WHERE position >= ? ORDER BY position LIMIT 1`);
    const at = (position: number) => (firstAtOrAfter.get(position) as { position: number; recordedAt: string } | undefined) ?? null;
    if (filter.from) {
      const from = iso(filter.from);
      low = Math.max(low, await lastPositionWhere(at, head, (row) => row.recordedAt < from));
    }
    if (filter.to) {
      const to = iso(filter.to);
      high = Math.min(high, await lastPositionWhere(at, head, (row) => row.recordedAt <= to));
    }
    return [low, high];
  }
}

/** A timeline entry for an event read straight from the log (no index at hand). */
export const timelineEntryOf = (event: RecordedEvent): TimelineEntry => {
  const metadata = event.metadata as { actor?: unknown; correlationId?: unknown } | null;
  return {
    position: event.position,
    at: event.recordedAt,
    type: event.type,
    stream: event.stream,
    actor: typeof metadata?.actor === 'string' ? metadata.actor : null,
    token: deriveAuditFields(event).token,
    summary: summarise(event),
    correlationId: typeof metadata?.correlationId === 'string' ? metadata.correlationId : null,
  };
};
