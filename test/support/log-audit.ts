/**
 * Checks on the event log itself, read straight from the store file with a second
 * handle (safe while the server runs: WAL readers never block the writer).
 */
import { SqliteEventStore, type RecordedEvent } from '@ledger/event-store';
import { nodeIdOfStream, parseToken } from '@ledger/domain';
import { applyEvent, ledgerProjection, UNTRACKED, type LedgerViewState } from '@ledger/projections';

const PAGE = 10_000;

/** Every event in global order. */
export const readWholeLog = async (file: string): Promise<RecordedEvent[]> => {
  const store = await SqliteEventStore.open({ file });
  try {
    const events: RecordedEvent[] = [];
    for (;;) {
      const page = await store.readAll({ fromPosition: events.at(-1)?.position ?? 0, maxCount: PAGE });
      events.push(...page);
      if (page.length < PAGE) return events;
    }
  } finally {
    await store.close();
  }
};

/**
 * Nothing torn, nothing duplicated: positions strictly increase, event ids are unique,
 * each stream's revisions are exactly 0..n-1, and every envelope is whole.
 */
export const structuralProblems = (events: readonly RecordedEvent[]): string[] => {
  const problems: string[] = [];
  const ids = new Set<string>();
  const nextRevision = new Map<string, number>();
  let lastPosition = 0;
  for (const event of events) {
    if (!(event.position > lastPosition)) problems.push(`position ${event.position} does not follow ${lastPosition}`);
    lastPosition = event.position;
    if (ids.has(event.id)) problems.push(`event id ${event.id} appears twice (position ${event.position})`);
    ids.add(event.id);
    const expected = nextRevision.get(event.stream) ?? 0;
    if (event.revision !== expected) problems.push(`${event.stream}: revision ${event.revision} where ${expected} was due (position ${event.position})`);
    nextRevision.set(event.stream, event.revision + 1);
    const { metadata } = event;
    if (typeof event.type !== 'string' || event.data === null || typeof event.data !== 'object') problems.push(`position ${event.position}: no type or data`);
    if (!metadata || typeof metadata.correlationId !== 'string' || typeof metadata.actor !== 'string' || metadata.schemaVersion !== 1) {
      problems.push(`position ${event.position}: incomplete metadata ${JSON.stringify(metadata)}`);
    }
  }
  return problems;
};

interface AllocationData {
  nodeId: string;
  token: string;
  epoch: number;
  request?: { requestId: string } | null;
}

/**
 * The allocation invariants, on the log alone: at most one live allocation per node,
 * tokens unique across all nodes and time and naming their own node and epoch, epochs
 * 1..n per node, every ending names the live token, one acquire per requestId.
 */
export const allocationInvariantProblems = (events: readonly RecordedEvent[]): string[] => {
  const problems: string[] = [];
  const live = new Map<string, string>();
  const epochs = new Map<string, number>();
  const tokens = new Set<string>();
  const acquireOfRequest = new Map<string, string>();
  for (const event of events) {
    const nodeId = nodeIdOfStream(event.stream);
    if (nodeId === null) continue;
    const data = event.data as AllocationData;
    const where = `${event.stream}@${event.revision} (position ${event.position})`;
    if (event.type === 'NodeAcquired') {
      if (live.has(nodeId)) problems.push(`${where}: acquired while ${live.get(nodeId)} is still live`);
      const epoch = (epochs.get(nodeId) ?? 0) + 1;
      if (data.epoch !== epoch) problems.push(`${where}: epoch ${data.epoch} where ${epoch} was due`);
      epochs.set(nodeId, data.epoch);
      if (tokens.has(data.token)) problems.push(`${where}: token ${data.token} issued twice`);
      tokens.add(data.token);
      const parsed = parseToken(data.token);
      if (parsed?.nodeId !== nodeId || parsed.epoch !== data.epoch) problems.push(`${where}: token ${data.token} does not name ${nodeId} epoch ${data.epoch}`);
      const requestId = data.request?.requestId;
      if (requestId !== undefined) {
        if (acquireOfRequest.has(requestId))
          problems.push(`${where}: requestId ${requestId} acquired twice (${acquireOfRequest.get(requestId)} and ${data.token})`);
        acquireOfRequest.set(requestId, data.token);
      }
      live.set(nodeId, data.token);
    } else if (event.type === 'AllocationReleased' || event.type === 'AllocationRevoked') {
      if (live.get(nodeId) !== data.token) problems.push(`${where}: ${event.type} of ${data.token}, but the live token is ${live.get(nodeId) ?? 'none'}`);
      live.delete(nodeId);
    } else if (['DeploymentStarted', 'NodeDeployed', 'DeploymentFailed'].includes(event.type)) {
      if (live.get(nodeId) !== data.token) problems.push(`${where}: ${event.type} for ${data.token}, which is not live`);
    }
  }
  return problems;
};

/** The read models as a rebuild from zero gives them, folding events up to `upTo` (default: all). */
export const foldFromZero = (events: readonly RecordedEvent[], upTo = Infinity): LedgerViewState => {
  const view = ledgerProjection.initialState();
  for (const event of events) {
    if (event.position > upTo) break;
    applyEvent(view, event, UNTRACKED);
  }
  return view;
};

/** The fields of an event's data that evidence tells events apart by (each event has some of them). */
export interface EvidenceData {
  token?: string;
  reservationId?: string;
  ip?: string;
  ending?: string;
  request?: { requestId: string } | null;
}

/** What an acknowledged command must have left in the log. */
export interface Evidence {
  /** For the failure message: which command, and what it was told. */
  what: string;
  stream: string;
  /** The event's type (or the types it may have, e.g. a repeated report's own record). */
  type: string | readonly string[];
  where?: (data: EvidenceData) => boolean;
  /**
   * The position the command answered with: its append ended exactly there (an event of
   * this stream is at that position) and the expected event is at or before it (an
   * append may carry follow-up events after the one the command is about).
   */
  position?: number | null;
}

export const missingEvidence = (evidence: readonly Evidence[], events: readonly RecordedEvent[]): string[] => {
  const byStream = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    const list = byStream.get(event.stream);
    if (list) list.push(event);
    else byStream.set(event.stream, [event]);
  }
  return evidence
    .filter((expected) => {
      const stream = byStream.get(expected.stream) ?? [];
      const types = typeof expected.type === 'string' ? [expected.type] : expected.type;
      const found = stream.filter((event) => types.includes(event.type) && (expected.where ? expected.where(event.data as EvidenceData) : true));
      if (found.length === 0) return true;
      if (expected.position == null) return false;
      return !stream.some((event) => event.position === expected.position) || !found.some((event) => event.position <= expected.position!);
    })
    .map(
      (expected) =>
        `acknowledged but not in the log: ${expected.what} (${String(expected.type)} in ${expected.stream}${expected.position != null ? ` by ${expected.position}` : ''})`,
    );
};
