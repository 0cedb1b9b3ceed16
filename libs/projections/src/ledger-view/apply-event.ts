import type { RecordedEvent } from '@ledger/event-store';
import { UNTRACKED, type CollectionChanges } from '../runtime/collection-changes';
import { nodeIdOfStream, type NodeEvent } from '@ledger/domain';
import type { LedgerViewState } from './views';
import { applyNodeEvent } from './apply-node-event';
import { applyNodeHealthEvent } from './node-health-view';
import { applyDeviceOrLeaseEvent } from './apply-device-or-lease-event';

/**
 * Folds any recorded event into the views, reporting each entity it adds or changes to
 * `changes` (a fold nobody snapshots leaves it out); events no view cares about only move
 * the position.
 */
export const applyEvent = (view: LedgerViewState, recorded: RecordedEvent, changes: CollectionChanges = UNTRACKED): void => {
  if (recorded.position <= view.position) return; // already folded: replays are harmless
  if (nodeIdOfStream(recorded.stream) !== null) {
    const event = { type: recorded.type, data: recorded.data } as NodeEvent;
    applyNodeEvent(view, recorded, event, changes);
    applyNodeHealthEvent(view, recorded, event, changes);
  }
  applyDeviceOrLeaseEvent(view, recorded, changes);
  view.position = recorded.position;
};
