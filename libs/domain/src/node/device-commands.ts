import type { ProvisioningToken } from '../provisioning-token';
import type { DeviceId } from './device-id';

/** Register a container or VM under the allocation `token` names; fenced by that token. */
export type RegisterDevice = {
  type: 'RegisterDevice';
  nodeId: string;
  token: ProvisioningToken;
  hostname: string;
  /** Already normalised (lowercase, colon-separated). */
  mac: string;
  now: string;
};

export type RemoveDevice = {
  type: 'RemoveDevice';
  nodeId: string;
  deviceId: DeviceId;
  now: string;
};

export type DeviceCommand = RegisterDevice | RemoveDevice;
