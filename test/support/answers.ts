import type { components } from '@ledger/client';

/** An answer's body by its schema's name in the OpenAPI document (libs/ledger-client), for a request sent by path. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** An event as the audit log, its stream and the replay tools answer it. */
export type EventEnvelope = Schema<'EventEnvelopeDto'>;

/**
 * The parts of a state document (`/v1/state...`) the tests read: the document describes its
 * entities loosely (records of any fields), the read model's own types are the ledger's inside.
 */
export interface StateConsumer {
  controller: string;
  model: string;
}
export interface StateNode {
  nodeId: string;
  status: string;
  zone?: string;
  allocation: { token: string; foreign?: boolean; status: string } | null;
}
export interface StateAllocation {
  token: string;
  live: boolean;
  current: boolean;
  status: string;
  consumer: StateConsumer;
  ending: { kind: string } | null;
}
export interface StateLease {
  leaseId: string;
  ip: string;
  status: string;
  owner: { nodeId?: string };
}
export interface StateDocument {
  position: number;
  fromSnapshot?: number | null;
  next?: string | null;
  nodes: StateNode[];
  allocations: StateAllocation[];
  devices: unknown[];
  leases: StateLease[];
  address?: { status: string; history: StateLease[] };
}
/** The whole-ledger state keeps each address's leases under it. */
export interface WholeStateDocument extends Omit<StateDocument, 'leases'> {
  leases: { ip: string; history: StateLease[] }[];
}

/** A node command's answer when it appended (not a replay, not a no-op): its position is a number. */
export type Appended = Schema<'NodeCommandResponseDto'> & { position: number };
/** An acquire's 201: a fresh acquire appended, so it names the new token and its position. */
export type Acquired = Appended & { token: string };

/** An error answer (4xx, 5xx): its code and a message naming the problem. */
export type ApiError = Schema<'ApiErrorDto'>;

/** `/healthz`: the document describes the store and read models loosely; these are the figures the tests read. */
export type Health = Omit<Schema<'HealthSummaryDto'>, 'store' | 'readModels'> & {
  /** The fault is there only while the disk refuses writes. */
  store: { head: number; writable: boolean; fault?: { code: string; component: string; message: string; since: string; refusedWrites: number } };
  readModels: { position: number; lag: number };
};

/** A node as its owner or an operator reads it: an allocation, if any, is never foreign to them, so it names its token. */
export type OwnNode = Omit<Schema<'NodeResponseDto'>, 'allocation'> & { allocation: Schema<'NodeAllocationSummaryDto'> | null };

/** A 409 stale_token: the error names what the holder of the stale token should do. */
export type StaleToken = ApiError & { details: { action: string } };
