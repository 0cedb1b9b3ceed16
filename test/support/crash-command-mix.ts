/**
 * The commands the crash test fires at the ledger, and what each acknowledged answer
 * obliges the log to contain. To put a new endpoint under the crash test, add one
 * entry to COMMAND_MIX (a weight and a function that sends the request through
 * `attempt` and says what a 2xx answer proves). The allocation commands are in
 * crash-allocation-commands.ts; the world they share in crash-world.ts.
 */
import { Streams } from '@ledger/domain';
import type { SeededRandom } from './seeded-random';
import { attempt, CrashWorld, forgetIfStale, nodeStream, ok, type MixCommand, type MixContext } from './crash-world';
import { acquire, enlist, release, reportDeployment, retryAcknowledgedAcquire, useEndedToken } from './crash-allocation-commands';

export { CrashWorld, type MixContext } from './crash-world';

const reserve = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  if (world.nodes.length === 0) return Promise.resolve();
  const nodeId = random.pick(world.nodes);
  return attempt(context, {
    what: `reserve ${nodeId}`,
    method: 'POST',
    path: `/v1/nodes/${nodeId}/reservations`,
    body: { agentName: `crash-agent-${context.client}`, ttlSeconds: 3600 },
    interpret: (result) => {
      if (!ok(result)) return [];
      const { reservationId, reservationKey } = result.body as { reservationId: string; reservationKey: string };
      world.reservations.set(nodeId, { reservationId, reservationKey });
      return [
        {
          what: `reserve ${nodeId}`,
          stream: nodeStream(nodeId),
          type: 'NodeReserved',
          where: (data) => data.reservationId === reservationId,
          position: result.body.position,
        },
      ];
    },
  });
};

const cancelReservation = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  if (world.reservations.size === 0) return Promise.resolve();
  const [nodeId, { reservationId, reservationKey }] = random.pick([...world.reservations.entries()]);
  return attempt(context, {
    what: `cancel reservation ${reservationId}`,
    method: 'DELETE',
    path: `/v1/nodes/${nodeId}/reservations/${reservationId}`,
    headers: { 'x-reservation-key': reservationKey },
    interpret: (result) => {
      if (world.reservations.get(nodeId)?.reservationId === reservationId) world.reservations.delete(nodeId);
      if (!ok(result) || result.body.position === null) return [];
      return [
        {
          what: `cancel ${reservationId}`,
          stream: nodeStream(nodeId),
          type: 'ReservationCancelled',
          where: (data) => data.reservationId === reservationId,
          position: result.body.position,
        },
      ];
    },
  });
};

const observe = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  if (world.nodes.length === 0) return Promise.resolve();
  const nodeId = random.pick(world.nodes);
  const providerStatus = random.pick(['Ready', 'Deployed', 'Failed deployment', 'Deploying']);
  return attempt(context, {
    what: `observe ${nodeId} ${providerStatus}`,
    method: 'POST',
    path: '/v1/observations/nodes',
    body: { nodeId, providerStatus, observedAt: new Date().toISOString(), source: 'maas' },
    interpret: (result) => {
      if (!ok(result) || result.body.position === null) return [];
      const { status, token } = result.body as { status: string; token: string };
      if (status === 'revoked' && world.held.delete(token)) world.ended.push(token);
      const type = status === 'revoked' ? 'AllocationRevoked' : 'DeploymentFailed';
      return [
        {
          what: `observe ${nodeId} ${providerStatus}`,
          stream: nodeStream(nodeId),
          type,
          where: (data) => data.token === token,
          position: result.body.position,
        },
      ];
    },
  });
};

const releaseModel = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  const model = `m${random.int(0, 2)}`;
  const requestId = random.chance(0.5) ? world.nextId('model') : undefined;
  return attempt(context, {
    what: `release model ${model}`,
    method: 'POST',
    path: '/v1/models/release',
    body: { controller: 'crash', model, ...(requestId ? { requestId } : {}) },
    interpret: (result) => {
      if (!ok(result)) return [];
      const released = result.body.released as { token: string; nodeId: string }[];
      return released.map(({ token, nodeId }) => {
        if (world.held.delete(token)) world.ended.push(token);
        return {
          what: `release model ${model}: ${token}`,
          stream: nodeStream(nodeId),
          type: 'AllocationReleased',
          where: (data) => data.token === token && data.ending === 'model_released',
        };
      });
    },
  });
};

/** A lease owned by a held allocation: when the allocation ends, the lease cascade must release it, crashes or not. */
const grantLease = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  if (world.held.size === 0) return Promise.resolve();
  const { token } = random.pick([...world.held.values()]);
  const ip = `10.77.${context.client}.${random.int(1, 250)}`;
  const mac = `02:00:00:${[context.client, random.int(0, 255), random.int(0, 255)].map((octet) => octet.toString(16).padStart(2, '0')).join(':')}`;
  return attempt(context, {
    what: `lease ${ip} to ${token}`,
    method: 'POST',
    path: '/v1/leases',
    body: { ip, mac, owner: { token }, kind: random.pick(['dhcp', 'static']) },
    interpret: (result) => {
      forgetIfStale(world, token, result);
      if (!ok(result) || result.body.position === null) return [];
      return [
        {
          what: `lease ${ip} to ${token}`,
          stream: Streams.ip(ip),
          type: ['LeaseGranted', 'LeaseRenewed'],
          where: (data) => data.ip === ip,
          position: result.body.position,
        },
      ];
    },
  });
};

/** A request the server died under, sent again unchanged (same requestId): decided at most once. */
const retryInDoubt = (context: MixContext): Promise<void> => {
  const { inDoubt } = context.world;
  if (inDoubt.length === 0) return Promise.resolve();
  const [request] = inDoubt.splice(context.random.int(0, inDoubt.length - 1), 1);
  return attempt(context, request);
};

export const COMMAND_MIX: readonly MixCommand[] = [
  { name: 'enlist', weight: (world) => (world.nodes.length < world.maxNodes ? 0.5 : 0), run: enlist },
  { name: 'acquire by nodeId', weight: () => 2.5, run: (context) => acquire(context, 'nodeId') },
  { name: 'acquire by constraints', weight: () => 2, run: (context) => acquire(context, 'constraints') },
  { name: 'deployment report', weight: (world) => (world.held.size > 0 ? 3 : 0), run: reportDeployment },
  { name: 'release', weight: (world) => (world.held.size > 0 ? 3.5 : 0), run: release },
  { name: 'ended token', weight: (world) => (world.ended.length > 0 ? 0.5 : 0), run: useEndedToken },
  { name: 'reserve', weight: () => 0.7, run: reserve },
  { name: 'cancel reservation', weight: (world) => (world.reservations.size > 0 ? 0.5 : 0), run: cancelReservation },
  { name: 'observe', weight: () => 0.8, run: observe },
  { name: 'release model', weight: () => 0.15, run: releaseModel },
  { name: 'grant lease', weight: (world) => (world.held.size > 0 ? 0.8 : 0), run: grantLease },
  { name: 'retry in doubt', weight: (world) => (world.inDoubt.length > 0 ? 2 : 0), run: retryInDoubt },
  { name: 'retry acquire', weight: (world) => (world.acknowledgedAcquires.length > 0 ? 0.7 : 0), run: retryAcknowledgedAcquire },
];

export const pickCommand = (world: CrashWorld, random: SeededRandom, mix: readonly MixCommand[] = COMMAND_MIX): MixCommand => {
  const weights = mix.map((command) => command.weight(world));
  let roll = random.next() * weights.reduce((sum, weight) => sum + weight, 0);
  for (let index = 0; index < mix.length; index++) {
    roll -= weights[index];
    if (roll < 0) return mix[index];
  }
  return mix[0];
};
