import type { RecordedEvent } from '@ledger/event-store';
import { nodeIdOfStream, type NodeEvent } from '@ledger/domain';
import type { LedgerViewState } from './views';
import { applyNodeEvent } from './apply-node-event';
import { applyNodeHealthEvent } from './node-health-view';
import { applyDeviceOrLeaseEvent } from './apply-device-or-lease-event';

/** Folds any recorded event into the views; events no view cares about only move the position. */
export const applyEvent = (view: LedgerViewState, recorded: RecordedEvent): void => {
  if (recorded.position <= view.position) return; // already folded: replays are harmless
  if (nodeIdOfStream(recorded.stream) !== null) {
    const event = { type: recorded.type, data: recorded.data } as NodeEvent;
    applyNodeEvent(view, recorded, event);
    applyNodeHealthEvent(view, recorded, event);
  }
  applyDeviceOrLeaseEvent(view, recorded);
  view.position = recorded.position;
};
