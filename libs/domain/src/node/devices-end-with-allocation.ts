import type { Decision } from '../core';
import type { NodeEvent } from './node-events';
import type { NodeState } from './node-state';
import { liveDevicesOf } from './device-state';

/**
 * Devices never outlive their parent allocation (seed 2): whatever decision ends an
 * allocation (release, forced or whole-model release, revocation by observation),
 * the same append removes every live device of it. Applied once to every node
 * decision, so a new way of ending an allocation cannot forget its devices.
 */
export const endDevicesWithTheirAllocation = <Reply>(decision: Decision<NodeEvent, Reply>, state: NodeState): Decision<NodeEvent, Reply> => {
  if (decision.outcome === 'refused') return decision;
  // A loop, not flatMap: this runs on every node command, and most end no allocation.
  const events: NodeEvent[] = [];
  for (const event of decision.events) {
    events.push(event);
    if (event.type !== 'AllocationReleased' && event.type !== 'AllocationRevoked') continue;
    const { nodeId, token } = event.data;
    for (const device of liveDevicesOf(state.devices, token)) {
      events.push({ type: 'DeviceRemoved', data: { nodeId, token, deviceId: device.deviceId, reason: 'allocation_ended' } });
    }
  }
  return events.length === decision.events.length ? decision : { ...decision, events };
};
