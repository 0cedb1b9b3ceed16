import type { NodeCommand, NodeState } from '@ledger/domain';
import type { SeededRandom } from './seeded-random';

/**
 * The node commands of the simulated world that only the dice and the node's state decide:
 * who enlists what hardware, who reserves, how power syncs and maintenance go. Each draws
 * from `random` in a fixed order, so a seed gives the same log every time.
 */

const ZONES = ['default', 'rack-a', 'rack-b', 'rack-c'];
const OPERATOR = 'operator:charlie';

export const enlistCommand = (random: SeededRandom, nodeId: string): NodeCommand => ({
  type: 'EnlistNode',
  nodeId,
  profile: {
    hostname: `${nodeId}.maas`,
    arch: random.chance(0.8) ? 'amd64' : 'arm64',
    cpuCount: random.pick([8, 16, 32, 64]),
    memoryMb: random.pick([16384, 32768, 65536, 131072]),
    tags: random.chance(0.3) ? ['gpu'] : [],
    zone: random.pick(ZONES),
  },
});

/** A reservation by the picker agent under a key whose hash is `keyHash`, for 5 to 60 minutes. */
export const reserveCommand = (random: SeededRandom, nodeId: string, keyHash: string, now: number): NodeCommand => {
  const ttlMs = (5 + random.below(55)) * 60_000;
  return {
    type: 'ReserveNode',
    nodeId,
    reservationId: random.uuid(now),
    agentName: 'agent:picker',
    owner: random.chance(0.5) ? 'charlie' : null,
    keyHash,
    expiresAt: new Date(now + ttlMs).toISOString(),
    now: new Date(now).toISOString(),
  };
};

/** Power syncs mostly succeed; a node that started failing keeps failing for a while (seed 4). */
export const powerSyncCommand = (random: SeededRandom, nodeId: string, state: NodeState, now: number): NodeCommand => {
  const failing = state.health.power.consecutiveFailures > 0;
  const ok = failing ? random.chance(0.4) : random.chance(0.8);
  const iso = new Date(now).toISOString();
  return {
    type: 'ObservePowerSync',
    nodeId,
    ok,
    error: ok ? null : random.pick(['IPMI timeout', 'BMC unreachable']),
    observedAt: iso,
    failuresForFault: 3,
    now: iso,
  };
};

/** The operator puts a node in maintenance (a disk to replace), or ends the maintenance it is in. */
export const maintenanceCommand = (nodeId: string, state: NodeState, now: number): { command: NodeCommand; actor: string } => {
  const by = OPERATOR;
  const iso = new Date(now).toISOString();
  const command: NodeCommand = state.health.maintenance
    ? { type: 'EndMaintenance', nodeId, reason: 'fixed', by, now: iso }
    : { type: 'StartMaintenance', nodeId, reason: 'replacing a disk', by, now: iso };
  return { command, actor: by };
};

/** MAAS (or an operator) reports the machine's status. */
export const providerStatusCommand = (nodeId: string, providerStatus: string, now: number): NodeCommand => {
  const iso = new Date(now).toISOString();
  return { type: 'ObserveProviderStatus', nodeId, providerStatus, source: 'maas', observedAt: iso, now: iso };
};
