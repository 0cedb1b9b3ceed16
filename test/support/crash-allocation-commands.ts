/**
 * The crash test's commands on allocations: enlist, acquire (and its retry), deployment
 * reports, release, and a token that ended, each saying what its 2xx answer proves.
 */
import { attempt, forgetIfStale, nodeStream, ok, type Attempt, type MixContext } from './crash-world';

export const enlist = (context: MixContext): Promise<void> => {
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

export const acquire = (context: MixContext, by: 'nodeId' | 'constraints'): Promise<void> => {
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

export const reportDeployment = (context: MixContext): Promise<void> => {
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

export const release = (context: MixContext): Promise<void> => {
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
export const useEndedToken = (context: MixContext): Promise<void> => {
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

/** An acknowledged acquire sent again with its requestId: the same token, nothing new written. */
export const retryAcknowledgedAcquire = (context: MixContext): Promise<void> => {
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
