import type { DomainEvent } from '../core';
import type { ProvisioningToken } from '../provisioning-token';
import type { DeviceId } from './device-id';

/** Why a device stopped existing: its holder removed it, or its parent allocation ended. */
export type DeviceRemovalReason = 'removed' | 'allocation_ended';

/** A container or VM registered under a live allocation (seed 2): it lives and dies with it. */
export type DeviceRegistered = DomainEvent<
  'DeviceRegistered',
  { nodeId: string; token: ProvisioningToken; epoch: number; deviceId: DeviceId; hostname: string; mac: string }
>;

export type DeviceRemoved = DomainEvent<'DeviceRemoved', { nodeId: string; token: ProvisioningToken; deviceId: DeviceId; reason: DeviceRemovalReason }>;

export type DeviceEvent = DeviceRegistered | DeviceRemoved;

export const DEVICE_EVENT_TYPES: ReadonlySet<string> = new Set(['DeviceRegistered', 'DeviceRemoved']);
