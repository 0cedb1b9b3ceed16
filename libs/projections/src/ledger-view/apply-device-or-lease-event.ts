import type { RecordedEvent } from '@ledger/event-store';
import type { CollectionChanges } from '../runtime/collection-changes';
import { DEVICE_EVENT_TYPES, ipOfStream, nodeIdOfStream, type DeviceEvent, type LeaseEvent } from '@ledger/domain';
import type { LedgerViewState } from './views';
import { applyDeviceEvent } from './apply-device-event';
import { applyLeaseEvent } from './apply-lease-event';

/** Seed 2's read models: devices (from node streams) and leases (from ip streams). */
export const applyDeviceOrLeaseEvent = (view: LedgerViewState, recorded: RecordedEvent, changes: CollectionChanges): void => {
  const event = { type: recorded.type, data: recorded.data };
  if (DEVICE_EVENT_TYPES.has(recorded.type) && nodeIdOfStream(recorded.stream) !== null) return applyDeviceEvent(view, recorded, event as DeviceEvent, changes);
  const ip = ipOfStream(recorded.stream);
  if (ip !== null) applyLeaseEvent(view, recorded, ip, event as LeaseEvent, changes);
};
