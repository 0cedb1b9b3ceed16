import type { DeviceView } from './device-views';
import type { LedgerViewState } from './views';
import { isCurrent } from './allocation-queries';

/** A device is live while it is not removed and its parent allocation is current. */
export const isDeviceLive = (view: LedgerViewState, device: DeviceView): boolean => {
  const allocation = view.allocations[device.token];
  return device.removed === null && !!allocation && isCurrent(view, allocation);
};

/** Live devices by their MAC: what a DHCP server's binding is matched against (several on one MAC match none). */
export const liveDevicesByMac = (view: LedgerViewState): Map<string, DeviceView[]> => {
  const byMac = new Map<string, DeviceView[]>();
  for (const device of Object.values(view.devices)) {
    if (!isDeviceLive(view, device)) continue;
    const same = byMac.get(device.mac);
    if (same) same.push(device);
    else byMac.set(device.mac, [device]);
  }
  return byMac;
};
