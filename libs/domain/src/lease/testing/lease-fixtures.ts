import assert from 'node:assert/strict';
import { foldEvents, type Decider, type Decision, type RefusalCode } from '../../core';
import { mintToken } from '../../provisioning-token';
import type { NodeEvent } from '../../node/node-events';
import { mintDeviceId } from '../../node/device-id';
import type { LeaseOwner, OwnerLivenessReport } from '../lease-owner';
import { ownerKey } from '../lease-owner';

/**
 * Given/when/then for the device and lease specs, and the props they share: a node,
 * allocations on it, devices under them. (Plain, so these specs do not wait on the
 * shared testing helpers.)
 */
export const given = <Command, Event, State, Reply>(decider: Decider<Command, Event, State, Reply>, history: Event[]) => ({
  when: (command: Command) => {
    const state = foldEvents(decider, history);
    const decision = decider.decide(command, state);
    return {
      decision,
      then(expected: Event[]): Reply {
        const accepted = acceptedOf(decision);
        assert.deepEqual(accepted.events, expected);
        accepted.events.reduce(decider.evolve, state);
        return accepted.reply;
      },
      thenNothingHappens(): Reply {
        const accepted = acceptedOf(decision);
        assert.deepEqual(accepted.events, [], 'expected a no-op');
        return accepted.reply;
      },
      thenRefuses(code: RefusalCode, details?: Record<string, unknown>): void {
        assert.equal(decision.outcome, 'refused', `expected a refusal ${code}, got ${JSON.stringify(decision)}`);
        if (decision.outcome !== 'refused') return;
        assert.equal(decision.refusal.code, code, decision.refusal.message);
        if (details) for (const [key, value] of Object.entries(details)) assert.deepEqual(decision.refusal.details?.[key], value, key);
      },
    };
  },
});

const acceptedOf = <Event, Reply>(decision: Decision<Event, Reply>) => {
  if (decision.outcome === 'refused') assert.fail(`refused ${decision.refusal.code}: ${decision.refusal.message}`);
  return decision;
};

export const NODE = 'node-7';
export const at = (minute: number): string => new Date(Date.UTC(2015, 7, 12, 19, 0, 0) + minute * 60_000).toISOString();
export const tokenOf = (epoch: number, nodeId = NODE) => mintToken(nodeId, epoch, `entropy-for-epoch-${epoch}`);
export const deviceOf = (epoch: number, sequence: number, nodeId = NODE) => mintDeviceId(nodeId, epoch, sequence);

export const enlisted = (nodeId = NODE): NodeEvent => ({
  type: 'NodeEnlisted',
  data: { nodeId, hostname: `${nodeId}.maas`, arch: 'amd64', cpuCount: 4, memoryMb: 16384, tags: [], zone: 'default' },
});

export const acquired = (epoch: number, nodeId = NODE): NodeEvent => ({
  type: 'NodeAcquired',
  data: {
    nodeId,
    token: tokenOf(epoch, nodeId),
    epoch,
    consumer: { controller: 'autopilot', model: 'openstack' },
    acquiredAt: at(epoch),
    reservationId: null,
    request: { requestId: `acquire-${nodeId}-${epoch}`, fingerprint: 'f' },
  },
});

export const released = (epoch: number, nodeId = NODE): NodeEvent => ({
  type: 'AllocationReleased',
  data: { nodeId, token: tokenOf(epoch, nodeId), epoch, ending: 'released', at: at(epoch + 1), request: null, pendingCleanup: [] },
});

export const deviceRegistered = (epoch: number, sequence: number, mac: string, nodeId = NODE): NodeEvent => ({
  type: 'DeviceRegistered',
  data: { nodeId, token: tokenOf(epoch, nodeId), epoch, deviceId: deviceOf(epoch, sequence, nodeId), hostname: `juju-${epoch}-lxc-${sequence}`, mac },
});

export const deviceRemoved = (epoch: number, sequence: number, reason: 'removed' | 'allocation_ended', nodeId = NODE): NodeEvent => ({
  type: 'DeviceRemoved',
  data: { nodeId, token: tokenOf(epoch, nodeId), deviceId: deviceOf(epoch, sequence, nodeId), reason },
});

export const hostOwner = (epoch: number, nodeId = NODE): LeaseOwner => ({ kind: 'allocation', token: tokenOf(epoch, nodeId), nodeId });
export const deviceOwner = (epoch: number, sequence: number, nodeId = NODE): LeaseOwner => ({
  kind: 'device',
  deviceId: deviceOf(epoch, sequence, nodeId),
  token: tokenOf(epoch, nodeId),
  nodeId,
});

/** Liveness as the application would read it: these owners live, those ended. */
export const liveness = (live: LeaseOwner[], ended: LeaseOwner[] = []): OwnerLivenessReport => ({
  ...Object.fromEntries(live.map((owner) => [ownerKey(owner), { live: true as const }])),
  ...Object.fromEntries(ended.map((owner) => [ownerKey(owner), { live: false as const, ending: 'released' }])),
});
