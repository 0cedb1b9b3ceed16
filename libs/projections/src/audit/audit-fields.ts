import { ipOfStream, nodeIdOfStream, parseToken, refusalSubjectOfStream } from '@ledger/domain';
import { stringAt, type DataPath, type EventFields, type RecordedEvent } from '@ledger/event-store';

/** What the audit index can filter an event by. */
export interface AuditFields {
  nodeId: string | null;
  token: string | null;
  ip: string | null;
  controller: string | null;
  model: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const field = (value: unknown, name: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined);
const looksLikeIp = (subject: string): boolean => subject.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(subject);

/**
 * The audit fields of any event, without knowing its type, from the conventions every
 * event follows: data fields named nodeId (or owner.nodeId), token (or owner.token), ip, consumer.controller
 * and consumer.model; the stream it is on (node-*, ip-*, refusals-*); and the node a
 * provisioning token names. New event types are indexed as soon as they follow them.
 */
export const deriveAuditFields = (event: RecordedEvent): AuditFields => {
  const data = event.data;
  const token = text(field(data, 'token')) ?? text(field(field(data, 'owner'), 'token'));
  let ip = text(field(data, 'ip')) ?? ipOfStream(event.stream);
  let nodeId = text(field(data, 'nodeId')) ?? text(field(field(data, 'owner'), 'nodeId')) ?? nodeIdOfStream(event.stream);
  const subject = refusalSubjectOfStream(event.stream);
  if (subject !== null && subject !== 'ledger' && nodeId === null && ip === null) {
    if (looksLikeIp(subject)) ip = subject;
    else nodeId = subject;
  }
  if (nodeId === null && token !== null) nodeId = parseToken(token)?.nodeId ?? null;
  const consumer = field(data, 'consumer');
  return { nodeId, token, ip, controller: text(field(consumer, 'controller')), model: text(field(consumer, 'model')) };
};

/** A lease as an address and the lease's id (unique on that address). */
export interface LeaseRef {
  ip: string;
  leaseId: string;
}

/**
 * The lease an event names without naming its owner: a renewal, release or expiry names
 * only the address and the lease. Its token, node and consumer are the owner's, which the
 * lease's grant named (leaseGrantOf); the live stream and the audit index both file it so.
 */
export const ownerlessLeaseOf = (event: RecordedEvent, fields: AuditFields): LeaseRef | null => {
  const leaseId = text(field(event.data, 'leaseId'));
  return fields.token === null && fields.ip !== null && leaseId !== null ? { ip: fields.ip, leaseId } : null;
};

/** The lease an event grants, with its owner's token: an event naming a lease and its owner. */
export const leaseGrantOf = (event: RecordedEvent, fields: AuditFields): (LeaseRef & { token: string }) | null => {
  const leaseId = text(field(event.data, 'leaseId'));
  const token = text(field(field(event.data, 'owner'), 'token'));
  return fields.ip !== null && leaseId !== null && token !== null ? { ip: fields.ip, leaseId, token } : null;
};

/**
 * Every field of an event's data that deriveAuditFields, ownerlessLeaseOf and leaseGrantOf
 * read (each only as a string): a reader that hands over these alone (the rebuild's
 * thread, EventFields) files every event as the whole data would.
 */
export const AUDIT_DATA_PATHS: readonly DataPath[] = [
  ['nodeId'],
  ['token'],
  ['ip'],
  ['leaseId'],
  ['owner', 'nodeId'],
  ['owner', 'token'],
  ['consumer', 'controller'],
  ['consumer', 'model'],
];

/** The strings at AUDIT_DATA_PATHS of each event (or null), one event after another: what a reader that parsed them hands the audit index's thread. */
export const auditFieldsOf = (events: readonly RecordedEvent[]): (string | null)[] => {
  const fields = new Array<string | null>(events.length * AUDIT_DATA_PATHS.length);
  let i = 0;
  for (const event of events) for (const path of AUDIT_DATA_PATHS) fields[i++] = stringAt(event.data, path);
  return fields;
};

/**
 * The event as the functions above see it, from the fields at AUDIT_DATA_PATHS (in that
 * order) alone: data holds those strings and nothing else; the envelope's other parts the
 * audit index does not read (its rows refer to the event in the log by position).
 */
export const auditEventOf = (event: EventFields): RecordedEvent => {
  const [nodeId, token, ip, leaseId, ownerNodeId, ownerToken, controller, model] = event.fields;
  return {
    id: '',
    type: event.type,
    stream: event.stream,
    revision: 0,
    position: event.position,
    recordedAt: event.recordedAt,
    data: { nodeId, token, ip, leaseId, owner: { nodeId: ownerNodeId, token: ownerToken }, consumer: { controller, model } },
    metadata: {} as RecordedEvent['metadata'],
  };
};
