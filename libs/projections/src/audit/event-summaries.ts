import type { RecordedEvent } from '@ledger/event-store';
import type { Consumer, LeaseEvent, NodeEvent } from '@ledger/domain';

/** The events the ledger records beside the domain's: an acquire's route, and a refusal. */
interface RecordOnlyData {
  AcquireRouted: { requestId: string; nodeId: string };
  CommandRefused: { command: string; code: string; reason: string; token?: string | null; consumer?: Consumer | null; details?: { action?: string } | null };
}

type DataByType = { [E in NodeEvent | LeaseEvent as E['type']]: E['data'] } & RecordOnlyData;

/** What an event changed and why, in words, for timelines and replays: one line per type, reading its own type's data. */
type EventSummaries = { [T in keyof DataByType]: (data: DataByType[T], event: RecordedEvent) => string };

/** A line as summarise calls it: the log's data is the type's current shape (upcasters see to it), and a line that still throws falls back below. */
type AnySummary = (data: unknown, event: RecordedEvent) => string;

const short = (token: unknown): string => (typeof token === 'string' && token.length > 24 ? `${token.slice(0, 20)}…` : String(token));
const consumerOf = (consumer: { controller: string; model: string; machine?: string } | null | undefined): string =>
  consumer ? `${consumer.controller}/${consumer.model}${consumer.machine ? ` machine ${consumer.machine}` : ''}` : 'someone';

/**
 * One line per event type. A type missing here is still summarised, by its plain data
 * fields (see summarise), so new events read sensibly before anyone writes their line.
 */
export const EVENT_SUMMARIES: EventSummaries = {
  NodeEnlisted: (d) => `enlisted ${d.hostname} (${d.arch}, ${d.cpuCount} CPUs, ${d.memoryMb} MB, zone ${d.zone}${d.pool ? `, pool ${d.pool}` : ''})`,
  NodeReserved: (d) => `reserved for ${d.agentName}${d.owner ? ` (owner ${d.owner})` : ''} until ${d.expiresAt}`,
  ReservationCancelled: (d) => `reservation ${d.reservationId} cancelled by its holder`,
  ReservationExpired: (d) => `reservation ${d.reservationId} expired at ${d.expiredAt}`,
  NodeAcquired: (d) =>
    `allocated to ${consumerOf(d.consumer)}: epoch ${d.epoch}, token ${short(d.token)}${d.reservationId ? `, consuming reservation ${d.reservationId}` : ''}`,
  DeploymentStarted: (d) => `deployment started (epoch ${d.epoch})`,
  NodeDeployed: (d) => `deployed (epoch ${d.epoch})`,
  DeploymentFailed: (d) => `deployment failed (epoch ${d.epoch}): ${d.reason}, reported by ${d.source}`,
  DeploymentReportRepeated: (d) => `repeated report: still ${d.status} (request ${d.request?.requestId})`,
  AllocationReleased: (d) =>
    `allocation ended: ${String(d.ending).replace('_', ' ')} by its ${d.ending === 'model_released' ? 'model (environment destroyed)' : 'holder'} (epoch ${d.epoch})` +
    (d.pendingCleanup?.length ? `; provider cleanup pending: ${d.pendingCleanup.join(', ')}` : ''),
  AllocationRevoked: (d) =>
    `allocation revoked: ${d.source} saw the node ${d.providerStatus} while allocated (released out of band); token of epoch ${d.epoch} is dead`,
  AllocationOwnerDataSet: (d) =>
    `owner data set by its holder (epoch ${d.epoch}): ${[...Object.entries(d.set ?? {}).map(([k, v]) => `${k}=${v}`), ...(d.removed ?? []).map((k) => `${k} removed`)].join(', ')}`,
  PowerSyncFailed: (d) => `power sync failed (${d.consecutive} in a row): ${d.error}`,
  PowerSyncRecovered: (d) => `power sync succeeded again after ${d.failures} failures`,
  NodeFaulted: (d) => `faulted: ${d.fault} since ${d.since} (${d.error})`,
  FaultCleared: (d) => `fault ${d.fault} cleared: ${String(d.cause).replace(/_/g, ' ')}`,
  MaintenanceStarted: (d) => `maintenance started by ${d.by}: ${d.reason}`,
  MaintenanceEnded: (d) => `maintenance ended by ${d.by}${d.reason ? `: ${d.reason}` : ''}`,
  PendingCleanupDone: (d) => `pending provider cleanup done: ${(d.steps ?? []).join(', ')}`,
  DeviceRegistered: (d) => `container/VM ${d.hostname} (${d.mac}) registered as ${d.deviceId} under the allocation of epoch ${d.epoch}`,
  DeviceRemoved: (d) => `device ${d.deviceId} removed ${d.reason === 'allocation_ended' ? 'because its allocation ended' : 'by its holder'}`,
  LeaseGranted: (d) =>
    `${d.leaseKind} lease of ${d.ip} for ${d.mac} granted to ${d.owner?.kind === 'device' ? `device ${d.owner.deviceId}` : `the allocation ${short(d.owner?.token)}`}${d.expiresAt ? ` until ${d.expiresAt}` : ''}`,
  LeaseRenewed: (d) => `lease of ${d.ip} renewed${d.expiresAt ? ` until ${d.expiresAt}` : ''}`,
  LeaseReleased: (d) => `lease of ${d.ip} released: ${String(d.reason).replace(/_/g, ' ')}${d.cause ? ` (caused by event ${d.cause})` : ''}`,
  LeaseExpired: (d) => `lease of ${d.ip} expired`,
  DhcpLeaseObserved: (d) => `DHCP server ${d.source} says ${d.ip} is ${d.state} for ${d.mac}${d.ends ? ` until ${d.ends}` : ''}`,
  DhcpLeaseReclaimed: (d) =>
    `reclaimed at DHCP server ${d.source}: its binding of ${d.ip} for ${d.mac} deleted, lease ${d.leaseId} having ended (${String(d.reason).replace(/_/g, ' ')}` +
    `${d.ownerEnding ? `: ${String(d.ownerEnding).replace(/_/g, ' ')}` : ''})`,
  AcquireRouted: (d) => `acquire request ${d.requestId} routed to node ${d.nodeId}`,
  CommandRefused: (d) =>
    `REFUSED ${d.command}${d.token ? ` with token ${short(d.token)}` : ''}${d.consumer ? ` for ${consumerOf(d.consumer)}` : ''}: ${d.code}: ${d.reason}` +
    (d.details?.action ? ` (${d.details.action})` : ''),
};

const plainFields = (data: unknown): string =>
  data !== null && typeof data === 'object'
    ? Object.entries(data as Record<string, unknown>)
        .filter(([, value]) => value !== null && ['string', 'number', 'boolean'].includes(typeof value))
        .map(([name, value]) => `${name}=${name === 'token' ? short(value) : String(value)}`)
        .join(', ')
    : '';

export const summarise = (event: RecordedEvent): string => {
  const summary = (EVENT_SUMMARIES as Partial<Record<string, AnySummary>>)[event.type];
  if (summary) {
    try {
      return summary(event.data ?? {}, event);
    } catch {
      // a malformed event still gets the generic line below
    }
  }
  const fields = plainFields(event.data);
  return fields ? `${event.type}: ${fields}` : event.type;
};
