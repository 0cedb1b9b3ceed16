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

/** The view as a document: each collection as a list sorted by key, optionally only what concerns one node. */
export const presentState = (view: LedgerViewState, now: Date, filter: { nodeId?: string } = {}): StateDocument => {
  const document: Record<string, unknown[]> = {};
  for (const [collection, value] of Object.entries(view)) {
    if (!isCollection(value)) continue;
    const keys = Object.keys(value)
      .sort()
      .filter((key) => filter.nodeId === undefined || concernsNode(collection, key, value[key], filter.nodeId));
    document[collection] = isPresented(collection) ? keys.map((key) => STATE_PRESENTERS[collection](view, key, now)) : keys.map((key) => value[key]);
  }
  return document as StateDocument;
};
