import type { StoryEvent } from './story';
import { shortToken } from './dom';

/**
 * The timeline's rows, folded from the events: bars for things that last (allocations,
 * deployment states, faults, maintenance, reservations, devices, leases) and marks for
 * moments (refusals, provider observations). Each bar and mark keeps its events'
 * positions, so the page can open the event that began or ended it.
 */
export type Tone =
  'allocation' | 'allocated' | 'deploying' | 'deployed' | 'failed' | 'fault' | 'maintenance' | 'reservation' | 'device' | 'lease' | 'lease-ended';

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
  bars: Bar[];
  marks: Mark[];
}

const OBSERVATIONS = new Set(['PowerSyncFailed', 'PowerSyncRecovered', 'DhcpLeaseObserved', 'AllocationRevoked']);

export const buildLanes = (events: StoryEvent[], multiNode: boolean): Lane[] => {
  const lanes = new Map<string, Lane>();
  const lane = (key: string, label: string): Lane => {
    let found = lanes.get(key);
    if (!found) lanes.set(key, (found = { key, label, bars: [], marks: [] }));
    return found;
  };
  const open = new Map<string, Bar>();
  const begin = (laneKey: string, laneLabel: string, id: string, event: StoryEvent, tone: Tone, label: string) => {
    const bar: Bar = {
      start: event.at,
      end: null,
      label,
      tone,
      startPosition: event.position,
      endPosition: null,
      title: `${label}: from ${event.recordedAt} (event ${event.position})`,
    };
    lane(laneKey, laneLabel).bars.push(bar);
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
  const suffix = (nodeId: string | undefined) => (multiNode && nodeId ? ` · ${nodeId}` : '');

  for (const event of events) {
    const d = event.data;
    const node = d.nodeId as string | undefined;
    const at = suffix(node);
    switch (event.type) {
      case 'NodeAcquired': {
        const c = d.consumer ?? {};
        begin(
          `alloc:${node}`,
          `allocations${at}`,
          `alloc:${d.token}`,
          event,
          'allocation',
          `${c.controller}/${c.model}${c.machine ? ` #${c.machine}` : ''} · epoch ${d.epoch} · ${shortToken(d.token)}`,
        );
        begin(`deploy:${node}`, `deployment${at}`, `deploy:${node}`, event, 'allocated', 'allocated');
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
        begin(`deploy:${node}`, `deployment${at}`, `deploy:${node}`, event, tone, label);
        if (event.type === 'DeploymentFailed')
          lane(`obs:${node}`, `observations${at}`).marks.push({ at: event.at, position: event.position, kind: 'observation', label: event.summary });
        break;
      }
      case 'AllocationReleased':
      case 'AllocationRevoked':
        finish(`alloc:${d.token}`, event, event.summary);
        finish(`deploy:${node}`, event, 'allocation ended');
        break;
      case 'NodeFaulted':
        begin(`health:${node}`, `faults & maintenance${at}`, `fault:${node}:${d.fault}`, event, 'fault', `fault ${d.fault}`);
        break;
      case 'FaultCleared':
        finish(`fault:${node}:${d.fault}`, event, event.summary);
        break;
      case 'MaintenanceStarted':
        begin(`health:${node}`, `faults & maintenance${at}`, `maint:${node}`, event, 'maintenance', `maintenance: ${d.reason}`);
        break;
      case 'MaintenanceEnded':
        finish(`maint:${node}`, event, event.summary);
        break;
      case 'NodeReserved':
        begin(`res:${node}`, `reservations${at}`, `res:${d.reservationId}`, event, 'reservation', `reserved for ${d.agentName}`);
        break;
      case 'ReservationCancelled':
      case 'ReservationExpired':
        finish(`res:${d.reservationId}`, event, event.summary);
        break;
      case 'DeviceRegistered':
        begin(`dev:${d.deviceId}`, `device ${d.hostname}${at}`, `dev:${d.deviceId}`, event, 'device', `${d.hostname} (${d.mac})`);
        break;
      case 'DeviceRemoved':
        finish(`dev:${d.deviceId}`, event, event.summary);
        break;
      case 'LeaseGranted':
        begin(
          `ip:${d.ip}`,
          `lease ${d.ip}`,
          `lease:${d.leaseId}`,
          event,
          'lease',
          `${d.ip} → ${d.owner?.kind === 'device' ? d.owner.deviceId : shortToken(d.owner?.token)}`,
        );
        break;
      case 'LeaseReleased':
      case 'LeaseExpired':
        finish(`lease:${d.leaseId}`, event, event.summary);
        break;
      case 'CommandRefused':
        lane(`refusals`, 'refusals').marks.push({ at: event.at, position: event.position, kind: 'refusal', label: event.summary });
        break;
    }
    if (OBSERVATIONS.has(event.type)) {
      const key = event.type === 'DhcpLeaseObserved' ? `ip:${d.ip}` : `obs:${node}`;
      lane(key, event.type === 'DhcpLeaseObserved' ? `lease ${d.ip}` : `observations${at}`).marks.push({
        at: event.at,
        position: event.position,
        kind: 'observation',
        label: event.summary,
      });
    }
  }
  return [...lanes.values()].sort((a, b) => laneOrder(a.key) - laneOrder(b.key) || a.key.localeCompare(b.key));
};

const ORDER = ['alloc:', 'deploy:', 'health:', 'res:', 'refusals', 'obs:', 'dev:', 'ip:'];
const laneOrder = (key: string): number => {
  const index = ORDER.findIndex((prefix) => key.startsWith(prefix));
  return index < 0 ? ORDER.length : index;
};
