import { mintDeviceId } from '@ledger/domain';
import { isCurrent, type AllocationView, type LedgerViewState } from '../ledger-view';

export const presentAllocation = (view: LedgerViewState, allocation: AllocationView) => ({
  token: allocation.token,
  nodeId: allocation.nodeId,
  epoch: allocation.epoch,
  consumer: allocation.consumer,
  status: allocation.status,
  live: allocation.live,
  current: isCurrent(view, allocation),
  acquiredAt: allocation.acquiredAt,
  reservationId: allocation.reservationId,
  deploymentFailures: allocation.deploymentFailures,
  ending: allocation.ending,
  ownerData: allocation.ownerData ?? {},
});

/** The devices registered under an allocation: its device ids count up from d1 within it, so no scan of every device. */
export const devicesOfAllocation = (view: LedgerViewState, allocation: AllocationView) => {
  const devices = [];
  for (let sequence = 1; ; sequence++) {
    const device = view.devices[mintDeviceId(allocation.nodeId, allocation.epoch, sequence)];
    if (!device) return devices;
    devices.push({ deviceId: device.deviceId, hostname: device.hostname, mac: device.mac, live: device.removed === null && allocation.live });
  }
};
