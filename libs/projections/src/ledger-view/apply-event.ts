import type { RecordedEvent } from '@ledger/event-store';
import type { CollectionChanges } from '../runtime/collection-changes';
import { nodeIdOfStream, type NodeEvent } from '@ledger/domain';
import type { LedgerViewState } from './views';
import { applyNodeEvent } from './apply-node-event';
import { applyNodeHealthEvent } from './node-health-view';
import { applyDeviceOrLeaseEvent } from './apply-device-or-lease-event';

/**
 * Folds any recorded event into the views, reporting each entity it adds or changes to
 * `changes` (UNTRACKED for a fold nobody snapshots or checkpoints: said by the caller, so a
 * tracked fold cannot lose its reports by leaving the argument out); events no view cares
 * about only move the position.
 */
export const applyEvent = (view: LedgerViewState, recorded: RecordedEvent, changes: CollectionChanges): void => {
  if (recorded.position <= view.position) return; // already folded: replays are harmless
  if (nodeIdOfStream(recorded.stream) !== null) {
    const event = { type: recorded.type, data: recorded.data } as NodeEvent;
    applyNodeEvent(view, recorded, event, changes);
    applyNodeHealthEvent(view, recorded, event, changes);
  }
  applyDeviceOrLeaseEvent(view, recorded, changes);
  view.position = recorded.position;
};
