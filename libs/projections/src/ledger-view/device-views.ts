import type { DeviceRemovalReason } from '@ledger/domain';

export interface DeviceView {
  deviceId: string;
  nodeId: string;
  /** The parent allocation. */
  token: string;
  epoch: number;
  hostname: string;
  mac: string;
  registeredAt: string;
  removed: { reason: DeviceRemovalReason; at: string } | null;
  lastPosition: number;
}
