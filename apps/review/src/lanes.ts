import type { StoryEvent } from './story';
import { shortToken } from './dom';

/**
 * The timeline's rows, folded from the events: bars for things that last (allocations,
 * deployment states, faults, maintenance, reservations, devices, leases) and marks for
 * moments (refusals, provider observations). Each bar and mark keeps its events'
 * positions, so the page can open the event that began or ended it.
 */
export type Tone =
  | 'allocation'
  | 'allocated'
  | 'deploying'
  | 'deployed'
  | 'failed'
  | 'fault'
  | 'maintenance'
  | 'reservation'
  | 'device'
  | 'lease'
  | 'lease-orphaned'
  | 'lease-ended';

export interface Bar {
  start: number;
  end: number | null;
  label: string;
  tone: Tone;
  startPosition: number;
  endPosition: number | null;
  /** Screen-reader and tooltip text: the whole story of the bar in words. */
  title: string;
}

export interface Mark {
  at: number;
  position: number;
  kind: 'refusal' | 'observation';
  label: string;
}

export interface Lane {
  key: string;
  label: string;
  /** The machine this lane is about (a lease's: its first owner's); null when no one node (a refusal without one). */
  nodeId: string | null;
  /** A device's lane, or a lease lane a device owns: the leases then sit right under their container. */
  deviceId: string | null;
  bars: Bar[];
  marks: Mark[];
}

/** Lanes drawn under one heading; a node's or an address's story is one group without a heading. */
export interface LaneGroup {
  nodeId: string | null;
  /** null: no heading (the lanes are not grouped). */
  label: string | null;
  lanes: Lane[];
}

/**
 * `by-node` (the model view): one group per machine of the model, holding its allocations,
 * deployment, faults, its containers and their leases, so each machine's containers can be
 * watched going from valid to released. `flat`: one group, lane labels naming the node
 * when the story spans several (an address's owners).
 */
export type LaneLayout = 'flat' | 'by-node';

const OBSERVATIONS = new Set(['PowerSyncFailed', 'PowerSyncRecovered', 'DhcpLeaseObserved', 'DhcpLeaseReclaimed', 'AllocationRevoked']);
/** What a DHCP server said or its agent did about an address: marked on that address's lane. */
const ADDRESS_OBSERVATIONS = new Set(['DhcpLeaseObserved', 'DhcpLeaseReclaimed']);

export const buildLanes = (events: StoryEvent[], layout: LaneLayout): LaneGroup[] => {
  const byNode = layout === 'by-node';
  const multiNode = !byNode && new Set(events.map((event) => event.data?.nodeId).filter(Boolean)).size > 1;
  const lanes = new Map<string, Lane>();
  const lane = (key: string, label: string, nodeId: string | null = null, deviceId: string | null = null): Lane => {
    let found = lanes.get(key);
    if (!found) lanes.set(key, (found = { key, label, nodeId, deviceId, bars: [], marks: [] }));
    return found;
  };
  const open = new Map<string, Bar>();
  const begin = (into: Lane, id: string, event: StoryEvent, tone: Tone, label: string) => {
    const bar: Bar = {
      start: event.at,
      end: null,
      label,
      tone,
      startPosition: event.position,
      endPosition: null,
      title: `${label}: from ${event.recordedAt} (event ${event.position})`,
    };
    into.bars.push(bar);
    open.set(id, bar);
  };
  const finish = (id: string, event: StoryEvent, how: string) => {
    const bar = open.get(id);
    if (!bar) return;
    bar.end = event.at;
    bar.endPosition = event.position;
    bar.title += `, until ${event.recordedAt} (event ${event.position}): ${how}`;
    open.delete(id);
  };
  /** Open leases (by bar id) and what owns them, so an owner's end turns its leases' bars orphaned until they are released. */
  const leaseOwners = new Map<string, { ip: string; token?: string; deviceId?: string }>();
  const orphanLeasesOf = (owner: { token?: string; deviceId?: string }, event: StoryEvent) => {
    for (const [barId, lease] of leaseOwners) {
      if ((owner.token === undefined || lease.token !== owner.token) && (owner.deviceId === undefined || lease.deviceId !== owner.deviceId)) continue;
      finish(barId, event, `its owner ended: ${event.summary}`);
      begin(ipLane(lease.ip), barId, event, 'lease-orphaned', `${lease.ip} orphaned: owner ended`);
      leaseOwners.delete(barId);
    }
  };
  // Grouped, the group's heading names the node; flat, a label names it when several share the story.
  const suffix = (nodeId: string | undefined) => (multiNode && nodeId ? ` · ${nodeId}` : '');
  const nodeLane = (kind: string, label: string, node: string | undefined) => lane(`${kind}:${node}`, `${label}${suffix(node)}`, node ?? null);
  /** An address's lane: it sits with its first owner's node (and under its container), where its story began. */
  const ipLane = (ip: string | undefined, owner?: { nodeId?: string; deviceId?: string }) => {
    const found = lane(`ip:${ip}`, `lease ${ip}`);
    if (found.nodeId === null && owner?.nodeId) {
      found.nodeId = owner.nodeId;
      found.deviceId = owner.deviceId ?? null;
    }
    return found;
  };

  for (const event of events) {
    const d = event.data;
    const node = d.nodeId as string | undefined;
    switch (event.type) {
      case 'NodeAcquired': {
        const c = d.consumer ?? {};
        begin(
          nodeLane('alloc', 'allocations', node),
          `alloc:${d.token}`,
          event,
          'allocation',
          `${c.controller}/${c.model}${c.machine ? ` #${c.machine}` : ''} · epoch ${d.epoch} · ${shortToken(d.token)}`,
        );
        begin(nodeLane('deploy', 'deployment', node), `deploy:${node}`, event, 'allocated', 'allocated');
        if (d.reservationId) finish(`res:${d.reservationId}`, event, 'consumed by this acquire');
        break;
      }
      case 'DeploymentStarted':
      case 'NodeDeployed':
      case 'DeploymentFailed': {
        finish(`deploy:${node}`, event, event.type);
        const [tone, label]: [Tone, string] =
          event.type === 'DeploymentStarted'
            ? ['deploying', 'deploying']
            : event.type === 'NodeDeployed'
              ? ['deployed', 'deployed']
              : ['failed', 'failed_deployment'];
        begin(nodeLane('deploy', 'deployment', node), `deploy:${node}`, event, tone, label);
        if (event.type === 'DeploymentFailed')
          nodeLane('obs', 'observations', node).marks.push({ at: event.at, position: event.position, kind: 'observation', label: event.summary });
        break;
      }
      case 'AllocationOwnerDataSet': {
        // The holder's labels (Juju's model and machine ids) belong to the allocation's story.
        const bar = open.get(`alloc:${d.token}`);
        if (bar) bar.title += `; ${event.summary}`;
        break;
      }
      case 'AllocationReleased':
      case 'AllocationRevoked':
        finish(`alloc:${d.token}`, event, event.summary);
        finish(`deploy:${node}`, event, 'allocation ended');
        orphanLeasesOf({ token: d.token }, event);
        break;
      case 'NodeFaulted':
        begin(nodeLane('health', 'faults & maintenance', node), `fault:${node}:${d.fault}`, event, 'fault', `fault ${d.fault}`);
        break;
      case 'FaultCleared':
        finish(`fault:${node}:${d.fault}`, event, event.summary);
        break;
      case 'MaintenanceStarted':
        begin(nodeLane('health', 'faults & maintenance', node), `maint:${node}`, event, 'maintenance', `maintenance: ${d.reason}`);
        break;
      case 'MaintenanceEnded':
        finish(`maint:${node}`, event, event.summary);
        break;
      case 'NodeReserved':
        begin(nodeLane('res', 'reservations', node), `res:${d.reservationId}`, event, 'reservation', `reserved for ${d.agentName}`);
        break;
      case 'ReservationCancelled':
      case 'ReservationExpired':
        finish(`res:${d.reservationId}`, event, event.summary);
        break;
      case 'DeviceRegistered':
        begin(
          lane(`dev:${d.deviceId}`, `device ${d.hostname}${suffix(node)}`, node ?? null, d.deviceId),
          `dev:${d.deviceId}`,
          event,
          'device',
          `${d.hostname} (${d.mac})`,
        );
        break;
      case 'DeviceRemoved':
        finish(`dev:${d.deviceId}`, event, event.summary);
        orphanLeasesOf({ deviceId: d.deviceId }, event);
        break;
      case 'LeaseGranted':
        begin(
          ipLane(d.ip, d.owner),
          `lease:${d.leaseId}`,
          event,
          'lease',
          `${d.ip} → ${d.owner?.kind === 'device' ? d.owner.deviceId : shortToken(d.owner?.token)}`,
        );
        leaseOwners.set(`lease:${d.leaseId}`, { ip: String(d.ip), token: d.owner?.token, deviceId: d.owner?.kind === 'device' ? d.owner.deviceId : undefined });
        break;
      case 'LeaseReleased':
      case 'LeaseExpired':
        finish(`lease:${d.leaseId}`, event, event.summary);
        leaseOwners.delete(`lease:${d.leaseId}`);
        break;
      case 'CommandRefused': {
        // Refusals are recorded on the node's own refusal stream (`refusals-{nodeId}`).
        const refused = byNode ? (node ?? (event.stream.startsWith('refusals-') ? event.stream.slice('refusals-'.length) : undefined)) : undefined;
        lane(refused ? `refusals:${refused}` : 'refusals', 'refusals', refused ?? null).marks.push({
          at: event.at,
          position: event.position,
          kind: 'refusal',
          label: event.summary,
        });
        break;
      }
    }
    if (OBSERVATIONS.has(event.type))
      (ADDRESS_OBSERVATIONS.has(event.type) ? ipLane(d.ip) : nodeLane('obs', 'observations', node)).marks.push({
        at: event.at,
        position: event.position,
        kind: 'observation',
        label: event.summary,
      });
  }
  return group([...lanes.values()], byNode);
};

/** A group's lanes: the machine's own lanes first, then its host addresses, then each container followed by its leases. */
const ORDER = ['alloc:', 'deploy:', 'health:', 'res:', 'refusals', 'obs:', 'ip:', 'dev:'];
const rank = (lane: Lane): number => {
  if (lane.deviceId !== null) return ORDER.indexOf('dev:');
  const index = ORDER.findIndex((prefix) => lane.key.startsWith(prefix));
  return index < 0 ? ORDER.length : index;
};

const group = (lanes: Lane[], byNode: boolean): LaneGroup[] => {
  // Lanes are created in the story's order: a container's lane before its leases' lanes.
  const deviceSeq = new Map<string, number>();
  lanes.forEach((lane, index) => lane.deviceId !== null && !deviceSeq.has(lane.deviceId) && deviceSeq.set(lane.deviceId, index));
  const underDevice = (lane: Lane): number => (lane.deviceId === null ? 0 : deviceSeq.get(lane.deviceId)!);
  const ordered = [...lanes].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      underDevice(a) - underDevice(b) ||
      Number(a.key.startsWith('ip:')) - Number(b.key.startsWith('ip:')) ||
      a.key.localeCompare(b.key, 'en', { numeric: true }),
  );
  if (!byNode) return [{ nodeId: null, label: null, lanes: ordered }];
  const nodes = [...new Set(ordered.map((lane) => lane.nodeId))].sort((a, b) =>
    a === null ? 1 : b === null ? -1 : a.localeCompare(b, 'en', { numeric: true }),
  );
  return nodes.map((nodeId) => ({
    nodeId,
    label: nodeId === null ? 'not tied to one node' : `node ${nodeId}`,
    lanes: ordered.filter((lane) => lane.nodeId === nodeId),
  }));
};
