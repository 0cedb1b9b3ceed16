import { parseToken } from '@ledger/domain';
import { isCollection, type LedgerViewState } from '@ledger/projections';
import { presentNode } from '../nodes/node.presenter';
import { presentAllocation } from '../allocations/allocation.presenter';
import { presentIp } from '../leases/lease.presenter';

type Presenter = (view: LedgerViewState, entity: any, now: Date) => unknown;

/**
 * How each collection of the ledger view is shown, with statuses computed at `now`.
 * A collection without a line here is shown as stored, so everything the view holds
 * appears in a state document the day it is added.
 */
export const STATE_PRESENTERS: Record<string, Presenter> = {
  nodes: (view, node, now) => presentNode(view, node, now),
  allocations: (view, allocation) => presentAllocation(view, allocation),
  leases: (view, ips, now) => presentIp(view, ips, now),
};

const tokenNode = (value: unknown): string | null => (typeof value === 'string' ? parseToken(value)?.nodeId ?? null : null);

const names = (entity: any, nodeId: string): boolean =>
  entity?.nodeId === nodeId || entity?.owner?.nodeId === nodeId || tokenNode(entity?.token) === nodeId || tokenNode(entity?.owner?.token) === nodeId;

/**
 * Whether an entity is about a node: its own key in `nodes`, its nodeId, the node its
 * token (or its owner's) names, or, for an entity that lists others (an address's
 * leases), any of those.
 */
export const concernsNode = (field: string, key: string, entity: any, nodeId: string): boolean =>
  (field === 'nodes' && key === nodeId) ||
  names(entity, nodeId) ||
  (entity !== null && typeof entity === 'object' && Object.values(entity).some((value) => Array.isArray(value) && value.some((item) => names(item, nodeId))));

export interface StatePage {
  /** Entities per page, across all collections (in collection order, then key order). */
  limit: number;
  /** The cursor a previous page returned as `next`: `<collection>:<key>`, exclusive. */
  after?: string;
}

/**
 * The view as a document: each collection as a list sorted by key, optionally only what
 * concerns one node; with `page`, at most `limit` entities, from after the cursor, and the
 * cursor of the next page (`next`, null on the last), so a large ledger is sent in pieces.
 */
export const presentState = (view: LedgerViewState, now: Date, filter: { nodeId?: string } = {}, page?: StatePage): Record<string, unknown[]> & { next?: string | null } => {
  const document: Record<string, unknown[]> & { next?: string | null } = {};
  const cut = page?.after === undefined ? null : { field: page.after.slice(0, page.after.indexOf(':')), key: page.after.slice(page.after.indexOf(':') + 1) };
  let cutPassed = cut === null;
  let room = page?.limit ?? Infinity;
  let next: string | null = null;
  for (const [field, value] of Object.entries(view)) {
    if (!isCollection(value)) continue;
    const present = STATE_PRESENTERS[field] ?? ((_view, entity) => entity);
    document[field] = [];
    if (!cutPassed && cut!.field !== field) continue;
    for (const key of Object.keys(value).sort()) {
      if (!cutPassed) {
        if (key <= cut!.key) continue;
        cutPassed = true;
      }
      if (filter.nodeId !== undefined && !concernsNode(field, key, value[key], filter.nodeId)) continue;
      if (room === 0) break;
      document[field].push(present(view, value[key], now));
      room--;
      if (room === 0) next = `${field}:${key}`;
    }
    cutPassed = true;
  }
  if (page) document.next = next !== null && hasMoreAfter(view, next, filter) ? next : null;
  return document;
};

/** Whether any entity (passing the filter) comes after the cursor. */
const hasMoreAfter = (view: LedgerViewState, cursor: string, filter: { nodeId?: string }): boolean => {
  const split = cursor.indexOf(':');
  const field = cursor.slice(0, split);
  const key = cursor.slice(split + 1);
  let reached = false;
  for (const [name, value] of Object.entries(view)) {
    if (!isCollection(value)) continue;
    if (name === field) reached = true;
    else if (!reached) continue;
    for (const candidate of Object.keys(value)) {
      if (name === field && candidate <= key) continue;
      if (filter.nodeId === undefined || concernsNode(name, candidate, value[candidate], filter.nodeId)) return true;
    }
  }
  return false;
};
