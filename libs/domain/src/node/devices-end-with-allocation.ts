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
  const events = decision.events.flatMap((event): NodeEvent[] => {
    if (event.type !== 'AllocationReleased' && event.type !== 'AllocationRevoked') return [event];
    const { nodeId, token } = event.data;
    const removals: NodeEvent[] = liveDevicesOf(state.devices, token).map((device) => ({
      type: 'DeviceRemoved',
      data: { nodeId, token, deviceId: device.deviceId, reason: 'allocation_ended' },
    }));
    return [event, ...removals];
  });
  return events.length === decision.events.length ? decision : { ...decision, events };
};
