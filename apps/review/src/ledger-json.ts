/**
 * The shapes of the ledger's JSON answers, as far as the page reads them. The page trusts
 * nothing here to be present (every field it shows is optional or checked), so an event
 * type or field added to the ledger later shows as plain data, never breaks the page.
 */

/** An event's data: the fields the lanes and summaries read, and whatever else it holds. */
export interface EventData {
  nodeId?: string;
  token?: string;
  epoch?: number;
  consumer?: { controller?: string; model?: string; machine?: string | number };
  reservationId?: string;
  agentName?: string;
  fault?: string;
  reason?: string;
  deviceId?: string;
  hostname?: string;
  mac?: string;
  ip?: string;
  leaseId?: string;
  owner?: { kind?: string; deviceId?: string; token?: string; nodeId?: string };
  command?: string;
  code?: string;
  [field: string]: unknown;
}

/** One event as `GET /v1/audit/events` and `GET /v1/audit/stream` send it. */
export interface Envelope {
  position: number;
  recordedAt: string;
  type: string;
  stream: string;
  data: EventData;
  metadata: { actor?: string };
}

export interface AuditEventsPage {
  events: Envelope[];
  nextAfter: number | null;
  position: number;
}

export interface NodeAnswer {
  nodeId: string;
  hostname: string;
  status: string;
  epoch: number;
}

export interface AllocationAnswer {
  token: string;
  nodeId: string;
  epoch: number;
  status: string;
  current: boolean;
  consumer: { controller: string; model: string };
  ending?: { kind: string; at: string } | null;
}

export interface LeaseAnswer {
  ip: string;
  mac?: string;
  status: string;
  owner?: { nodeId?: string };
}

export interface AddressAnswer {
  ip: string;
  status: string;
  history?: LeaseAnswer[];
}
