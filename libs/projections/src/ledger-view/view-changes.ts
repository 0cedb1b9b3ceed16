import type { CollectionChanges } from '../runtime/collection-changes';
import type { LedgerViewState } from './views';

/** The view's collections: its fields that map a key to an entity. */
export type ViewCollection = Exclude<keyof LedgerViewState, 'position'>;

type EntityOf<F extends ViewCollection> = LedgerViewState[F][string];

/**
 * Each collection's key, read from its entity: the runtime keeps the reports until the next
 * save, and the entity's own string lives that long anyway, where the event's copy of it
 * would be kept alive only by the report.
 */
const KEY_OF: { [F in ViewCollection]: (entity: EntityOf<F>) => string } = {
  nodes: (node) => node.nodeId,
  allocations: (allocation) => allocation.token,
  devices: (device) => device.deviceId,
  leases: (ips) => ips.ip,
};

/**
 * Marks `entity` (in `view[field]`, added or changed) changed by the event at `position`,
 * both ways in one call so they cannot disagree: its `lastPosition`, which readers of the
 * view see, and the runtime told (CollectionChanges), which snapshots and checkpoints store
 * from.
 */
export const stamp = <F extends ViewCollection>(changes: CollectionChanges, field: F, entity: EntityOf<F>, position: number): void => {
  entity.lastPosition = position;
  changes.changed(field, KEY_OF[field](entity), entity, position);
};
