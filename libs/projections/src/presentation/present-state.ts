import { parseToken } from '@ledger/domain';
import type { DeviceView, LedgerViewState } from '../ledger-view';
import { isCollection } from '../runtime/snapshots/snapshot-tables';
import { presentNode } from './node.presenter';
import { presentAllocation } from './allocation.presenter';
import { presentIp } from './lease.presenter';

export type PresentedNode = ReturnType<typeof presentNode>;
export type PresentedAllocation = ReturnType<typeof presentAllocation>;
export type PresentedIp = ReturnType<typeof presentIp>;

/** The ledger view as a document: each collection a list sorted by key, statuses computed at a moment. */
export interface StateDocument {
  nodes: PresentedNode[];
  allocations: PresentedAllocation[];
  devices: DeviceView[];
  leases: PresentedIp[];
  /** A collection added to the view later appears here, shown as stored, the day it is added. */
  [collection: string]: unknown[];
}

type Presenters = { [Field in 'nodes' | 'allocations' | 'leases']: (view: LedgerViewState, key: string, now: Date) => StateDocument[Field][number] };

/** How each collection of the ledger view is shown, with statuses computed at `now`. */
export const STATE_PRESENTERS: Presenters = {
  nodes: (view, key, now) => presentNode(view, view.nodes[key], now),
  allocations: (view, key) => presentAllocation(view, view.allocations[key]),
  leases: (view, key, now) => presentIp(view, view.leases[key], now),
};

const isPresented = (field: string): field is keyof Presenters => field in STATE_PRESENTERS;

const tokenNode = (value: unknown): string | null => (typeof value === 'string' ? (parseToken(value)?.nodeId ?? null) : null);

const field = (entity: unknown, name: string): unknown =>
  entity !== null && typeof entity === 'object' ? (entity as Record<string, unknown>)[name] : undefined;

const names = (entity: unknown, nodeId: string): boolean => {
  const owner = field(entity, 'owner');
  return (
    field(entity, 'nodeId') === nodeId ||
    field(owner, 'nodeId') === nodeId ||
    tokenNode(field(entity, 'token')) === nodeId ||
    tokenNode(field(owner, 'token')) === nodeId
  );
};

/**
 * Whether an entity is about a node: its own key in `nodes`, its nodeId, the node its
 * token (or its owner's) names, or, for an entity that lists others (an address's
 * leases), any of those.
 */
export const concernsNode = (collection: string, key: string, entity: unknown, nodeId: string): boolean =>
  (collection === 'nodes' && key === nodeId) ||
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
export const presentState = (
  view: LedgerViewState,
  now: Date,
  filter: { nodeId?: string } = {},
  page?: StatePage,
): StateDocument & { next?: string | null } => {
  const document: Record<string, unknown[]> = {};
  const cut =
    page?.after === undefined ? null : { collection: page.after.slice(0, page.after.indexOf(':')), key: page.after.slice(page.after.indexOf(':') + 1) };
  let cutPassed = cut === null;
  let room = page?.limit ?? Infinity;
  let next: string | null = null;
  for (const [collection, value] of Object.entries(view)) {
    if (!isCollection(value)) continue;
    const shown: unknown[] = [];
    document[collection] = shown;
    if (cut !== null && !cutPassed && cut.collection !== collection) continue;
    for (const key of Object.keys(value).sort()) {
      if (cut !== null && !cutPassed) {
        if (key <= cut.key) continue;
        cutPassed = true;
      }
      if (filter.nodeId !== undefined && !concernsNode(collection, key, value[key], filter.nodeId)) continue;
      if (room === 0) break;
      shown.push(isPresented(collection) ? STATE_PRESENTERS[collection](view, key, now) : value[key]);
      room--;
      if (room === 0) next = `${collection}:${key}`;
    }
    cutPassed = true;
  }
  const paged = document as StateDocument & { next?: string | null };
  if (page) paged.next = next !== null && hasMoreAfter(view, next, filter) ? next : null;
  return paged;
};

/** Whether any entity (passing the filter) comes after the cursor. */
const hasMoreAfter = (view: LedgerViewState, cursor: string, filter: { nodeId?: string }): boolean => {
  const split = cursor.indexOf(':');
  const cursorCollection = cursor.slice(0, split);
  const cursorKey = cursor.slice(split + 1);
  let reached = false;
  for (const [collection, value] of Object.entries(view)) {
    if (!isCollection(value)) continue;
    if (collection === cursorCollection) reached = true;
    else if (!reached) continue;
    for (const candidate of Object.keys(value)) {
      if (collection === cursorCollection && candidate <= cursorKey) continue;
      if (filter.nodeId === undefined || concernsNode(collection, candidate, value[candidate], filter.nodeId)) return true;
    }
  }
  return false;
};
