/**
 * The commands the crash test fires at the ledger, and what each acknowledged answer
 * obliges the log to contain. To put a new endpoint under the crash test, add one
 * entry to COMMAND_MIX (a weight and a function that sends the request through
 * `attempt` and says what a 2xx answer proves).
 *
 * Why this file is over 300 lines: COMMAND_MIX is one table, one entry per endpoint under
 * the crash test; it reads best whole, beside the retry helper every entry uses.
 */
import { Streams } from '@ledger/domain';
import type { HttpResult, LedgerProcess } from '@ledger/testing';
import type { Evidence } from './log-audit';
import type { SeededRandom } from './seeded-random';

/** One request, remembered so that a request left without an answer can be sent again, unchanged. */
export interface Attempt {
  what: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Reads a received answer: updates the world, returns what the log must now hold. */
  interpret(result: HttpResult): Evidence[];
}

export interface Held {
  token: string;
  nodeId: string;
  model: string;
}

/** What the clients know, shared by all of them: only acknowledged facts, plus requests in doubt. */
export class CrashWorld {
  nodes: string[] = [];
  private nodeCounter = 0;
  private counter = 0;
  readonly held = new Map<string, Held>();
  readonly ended: string[] = [];
  readonly reservations = new Map<string, { reservationId: string; reservationKey: string }>();
  /** Acquires answered 201: retried later with the same requestId, they must get the same token. */
  readonly acknowledgedAcquires: { attempt: Attempt; requestId: string; token: string }[] = [];
  readonly tokenOfRequest = new Map<string, string>();
  /** Requests that got no answer (the server died under them): retried later, unchanged. */
  readonly inDoubt: Attempt[] = [];
  readonly evidence: Evidence[] = [];
  readonly violations: string[] = [];
  acknowledged = 0;
  unanswered = 0;

  constructor(
    readonly prefix: string,
    readonly maxNodes: number,
  ) {}

  nextNodeId(): string {
    return `${this.prefix}-n${++this.nodeCounter}`;
  }

  nextId(kind: string): string {
    return `${this.prefix}-${kind}-${++this.counter}`;
  }
}

export interface MixContext {
  /** The ledger running now (it changes at every restart). */
  ledger(): LedgerProcess;
  world: CrashWorld;
  random: SeededRandom;
  client: number;
}

export interface MixCommand {
  name: string;
  weight: (world: CrashWorld) => number;
  run(context: MixContext): Promise<void>;
}

/** Sends one request; an answer is interpreted, a failure to get one leaves the request in doubt. */
export const attempt = async (context: MixContext, request: Attempt): Promise<void> => {
  const { world } = context;
  let result: HttpResult;
  try {
    result = await context.ledger().request(request.method, request.path, request.body, request.headers);
  } catch {
    world.unanswered++;
    world.inDoubt.push(request);
    return;
  }
  if (result.status >= 500) {
    world.violations.push(`${request.what}: ${result.status} ${JSON.stringify(result.body)}`);
    return;
  }
  if (result.status >= 200 && result.status < 300) world.acknowledged++;
  world.evidence.push(...request.interpret(result));
};

const ok = (result: HttpResult) => result.status >= 200 && result.status < 300;
const nodeStream = Streams.node;

/** A 409 stale_token means the allocation ended meanwhile (revoked, released by a model release). */
const forgetIfStale = (world: CrashWorld, token: string, result: HttpResult): void => {
  if (result.status === 409 && result.body?.code === 'stale_token' && world.held.delete(token)) world.ended.push(token);
};

const enlist = (context: MixContext): Promise<void> => {
  const nodeId = context.world.nextNodeId();
  const zone = context.random.pick(['a', 'b']);
  return attempt(context, {
    what: `enlist ${nodeId}`,
    method: 'POST',
    path: '/v1/nodes',
    body: { nodeId, hostname: `${nodeId}.maas`, arch: 'amd64', cpuCount: 8, memoryMb: 16384, zone },
    interpret: (result) => {
      if (!ok(result)) return [];
      if (!context.world.nodes.includes(nodeId)) context.world.nodes.push(nodeId);
      return [{ what: `enlist ${nodeId}`, stream: nodeStream(nodeId), type: 'NodeEnlisted', position: result.body.position }];
    },
  });
};

const acquire = (context: MixContext, by: 'nodeId' | 'constraints'): Promise<void> => {
  const { world, random } = context;
  if (world.nodes.length === 0) return Promise.resolve();
  const requestId = world.nextId('acq');
  const model = `m${context.client % 3}`;
  const consumer = { controller: 'crash', model, machine: requestId };
  let body: Record<string, unknown>;
  if (by === 'constraints') {
    body = { requestId, consumer, constraints: { zone: random.pick(['a', 'b']) } };
  } else {
    const nodeId = random.pick(world.nodes);
    const reservation = world.reservations.get(nodeId);
    body = { requestId, consumer, nodeId, ...(reservation && random.chance(0.8) ? { reservationKey: reservation.reservationKey } : {}) };
  }
  const request: Attempt = {
    what: `acquire ${requestId}`,
    method: 'POST',
    path: '/v1/allocations',
    body,
    interpret: (result) => {
      if (!ok(result)) return [];
      const { token, nodeId } = result.body as { token: string; nodeId: string };
      const earlier = world.tokenOfRequest.get(requestId);
      if (earlier !== undefined && earlier !== token) world.violations.push(`requestId ${requestId} answered ${earlier} then ${token}`);
      if (earlier === undefined) {
        world.tokenOfRequest.set(requestId, token);
        world.acknowledgedAcquires.push({ attempt: request, requestId, token });
        if (!world.ended.includes(token)) world.held.set(token, { token, nodeId, model });
        if (typeof body.reservationKey === 'string') world.reservations.delete(nodeId);
      }
      return [
        {
          what: `acquire ${requestId} -> ${token}`,
          stream: nodeStream(nodeId),
          type: 'NodeAcquired',
          where: (data) => data.token === token && data.request?.requestId === requestId,
          position: result.body.position,
        },
      ];
    },
  };
  return attempt(context, request);
};

const DEPLOYMENT_REPORTS = [
  { path: 'deploying', type: 'DeploymentStarted' },
  { path: 'deployed', type: 'NodeDeployed' },
  { path: 'failed', type: 'DeploymentFailed' },
] as const;

const reportDeployment = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  if (world.held.size === 0) return Promise.resolve();
  const { token, nodeId } = random.pick([...world.held.values()]);
  const report = random.pick(DEPLOYMENT_REPORTS);
  const requestId = random.chance(0.5) ? world.nextId('dep') : undefined;
  return attempt(context, {
    what: `${report.path} ${token}`,
    method: 'POST',
    path: `/v1/allocations/${token}/${report.path}`,
    body: { ...(requestId ? { requestId } : {}), ...(report.path === 'failed' ? { reason: 'crash test', source: 'maas' } : {}) },
    interpret: (result) => {
      forgetIfStale(world, token, result);
      if (!ok(result)) return [];
      // No position: the allocation already had that status, so nothing had to be written.
      if (result.body.position === null) return [];
      // Repeating the current status with a requestId records the report itself, so its retry replays.
      const types = [report.type, 'DeploymentReportRepeated'];
      return [
        { what: `${report.path} ${token}`, stream: nodeStream(nodeId), type: types, where: (data) => data.token === token, position: result.body.position },
      ];
    },
  });
};

const release = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  if (world.held.size === 0) return Promise.resolve();
  const { token, nodeId } = random.pick([...world.held.values()]);
  const requestId = random.chance(0.7) ? world.nextId('rel') : undefined;
  return attempt(context, {
    what: `release ${token}`,
    method: 'POST',
    path: `/v1/allocations/${token}/release`,
    body: requestId ? { requestId } : {},
    interpret: (result) => {
      forgetIfStale(world, token, result);
      if (!ok(result)) return [];
      if (world.held.delete(token)) world.ended.push(token);
      return [
        {
          what: `release ${token}`,
          stream: nodeStream(nodeId),
          type: 'AllocationReleased',
          where: (data) => data.token === token,
          position: result.body.position,
        },
      ];
    },
  });
};

/** Fencing across crashes: a token whose end was acknowledged is refused, whatever happened since. */
const useEndedToken = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  if (world.ended.length === 0) return Promise.resolve();
  const token = random.pick(world.ended);
  const action = random.pick(['release', 'deploying', 'deployed']);
  return attempt(context, {
    what: `${action} with ended token ${token}`,
    method: 'POST',
    path: `/v1/allocations/${token}/${action}`,
    body: {},
    interpret: (result) => {
      if (result.status !== 409 || result.body?.code !== 'stale_token') {
        world.violations.push(`${action} with ended token ${token} answered ${result.status} ${JSON.stringify(result.body)}`);
      }
      return [];
    },
  });
};

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

/** An acknowledged acquire sent again with its requestId: the same token, nothing new written. */
const retryAcknowledgedAcquire = (context: MixContext): Promise<void> => {
  const { world, random } = context;
  if (world.acknowledgedAcquires.length === 0) return Promise.resolve();
  const { attempt: original, requestId, token } = random.pick(world.acknowledgedAcquires);
  return attempt(context, {
    ...original,
    what: `retry acquire ${requestId}`,
    interpret: (result) => {
      if (result.status !== 201 || result.body.token !== token) {
        world.violations.push(`retried acquire ${requestId} answered ${result.status} ${JSON.stringify(result.body)}, first answer was ${token}`);
      }
      return [];
    },
  });
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
