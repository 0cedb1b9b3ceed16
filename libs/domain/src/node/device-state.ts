import type { ProvisioningToken } from '../provisioning-token';
import type { DeviceRemovalReason } from './device-events';
import type { DeviceId } from './device-id';

/** A device as its node remembers it; removed devices are kept, so a repeated removal is a no-op. */
export interface NodeDevice {
  deviceId: DeviceId;
  token: ProvisioningToken;
  epoch: number;
  hostname: string;
  mac: string;
  removed: DeviceRemovalReason | null;
}

export type NodeDevices = Record<DeviceId, NodeDevice>;

export const liveDevicesOf = (devices: NodeDevices, token: ProvisioningToken): NodeDevice[] =>
  Object.values(devices).filter((device) => device.token === token && device.removed === null);
