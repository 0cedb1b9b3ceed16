import { parseToken } from '@ledger/domain';
import type { LedgerViewState } from '../ledger-view';
import { isCollection } from '../runtime/snapshots/snapshot-tables';
import { presentNode } from './node.presenter';
import { presentAllocation } from './allocation.presenter';
import { presentIp } from './lease.presenter';

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

/** The view as a document: each collection as a list sorted by key, optionally only what concerns one node. */
export const presentState = (view: LedgerViewState, now: Date, filter: { nodeId?: string } = {}): Record<string, unknown[]> => {
  const document: Record<string, unknown[]> = {};
  for (const [field, value] of Object.entries(view)) {
    if (!isCollection(value)) continue;
    const present = STATE_PRESENTERS[field] ?? ((_view, entity) => entity);
    document[field] = Object.keys(value)
      .sort()
      .filter((key) => filter.nodeId === undefined || concernsNode(field, key, value[key], filter.nodeId))
      .map((key) => present(view, value[key], now));
  }
  return document;
};
