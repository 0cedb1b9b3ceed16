import type { DeviceView } from './device-views';
import type { LedgerViewState } from './views';
import { isCurrent } from './allocation-queries';

/** A device is live while it is not removed and its parent allocation is current. */
export const isDeviceLive = (view: LedgerViewState, device: DeviceView): boolean => {
  const allocation = view.allocations[device.token];
  return device.removed === null && !!allocation && isCurrent(view, allocation);
};
