import fc from 'fast-check';
import { Streams, type NodeCommand, type NodeState } from '@ledger/domain';
import type { EventStore, ExpectedRevision, NewEvent } from '@ledger/event-store';
// Test-only reach into the domain's history generators: the log is one the real decider wrote.
import { historyArb, runHistory, type Step } from '../../../../domain/src/node/invariants/command-history';
import { healthHistoryArb, runHealthHistory, type HealthHistory } from '../../../../domain/src/node/invariants/node-health-history';
import { enlisted } from '../../../../domain/src/testing/node-health-fixtures';
import { leaseActionsArb, leaseWorldLog, type LeaseAction } from './lease-world-history';

export interface GeneratedHistories {
  nodes: Step[];
  health: HealthHistory;
  leases: LeaseAction[];
  /** How the two histories interleave: true takes the next node-history command. */
  order: boolean[];
}

export const generatedHistoriesArb = (maxLength = 40): fc.Arbitrary<GeneratedHistories> =>
  fc.record({ nodes: historyArb(maxLength), health: healthHistoryArb, leases: leaseActionsArb, order: fc.array(fc.boolean(), { maxLength: 200 }) });

interface Decided {
  command: NodeCommand;
  before: NodeState;
  decision:
    { outcome: 'accepted'; events: { type: string; data: unknown }[] } | { outcome: 'refused'; refusal: { code: string; message: string; details?: unknown } };
}

let ids = 0;
const envelope = (event: { type: string; data: unknown }, actor: string): NewEvent => ({
  id: `generated-${process.pid}-${++ids}`,
  type: event.type,
  data: event.data,
  metadata: { correlationId: `correlation-${ids}`, causationId: null, actor, requestId: null, schemaVersion: 1 },
});

/** The appends the ledger makes for one decided command: its events, or the refusal it records (as RefusalRecorder does). */
const appendsFor = ({ command, before, decision }: Decided): { stream: string; events: NewEvent[]; expected: 'tracked' | ExpectedRevision }[] => {
  const actor = 'consumer' in command ? `juju:${command.consumer.controller}/${command.consumer.model}` : 'maas';
  if (decision.outcome === 'accepted') {
    if (decision.events.length === 0) return [];
    const route =
      command.type === 'AcquireNode'
        ? [
            {
              stream: Streams.request(command.request.requestId),
              events: [
                envelope(
                  { type: 'AcquireRouted', data: { requestId: command.request.requestId, fingerprint: command.request.fingerprint, nodeId: command.nodeId } },
                  actor,
                ),
              ],
              expected: 'any' as const,
            },
          ]
        : [];
    return [...route, { stream: Streams.node(command.nodeId), events: decision.events.map((event) => envelope(event, actor)), expected: 'tracked' }];
  }
  if (before.profile === null || decision.refusal.code === 'not_found') return [];
  const data = {
    command: command.type,
    nodeId: command.nodeId,
    token: 'token' in command ? command.token : null,
    consumer: 'consumer' in command ? { controller: command.consumer.controller, model: command.consumer.model } : null,
    ip: null,
    code: decision.refusal.code,
    reason: decision.refusal.message,
    details: decision.refusal.details ?? null,
  };
  return [{ stream: Streams.refusals(command.nodeId), events: [envelope({ type: 'CommandRefused', data }, actor)], expected: 'any' }];
};

/** Every append the histories make, in their interleaved order. */
export const appendsOf = (histories: GeneratedHistories) => {
  const nodeSide = runHistory(histories.nodes) as Decided[];
  const healthSide = runHealthHistory(histories.health).transitions as Decided[];
  const merged: Decided[] = [];
  let i = 0;
  let j = 0;
  for (const takeNode of histories.order) {
    if (takeNode && i < nodeSide.length) merged.push(nodeSide[i++]);
    else if (j < healthSide.length) merged.push(healthSide[j++]);
  }
  merged.push(...nodeSide.slice(i), ...healthSide.slice(j));
  // The health history starts from an enlisted node: enlist it first, as the ledger would have.
  const enlist = [
    { stream: Streams.node((enlisted().data as { nodeId: string }).nodeId), events: [envelope(enlisted(), 'operator:charlie')], expected: 'tracked' as const },
  ];
  // Devices and leases come after, on nodes and addresses of their own: the streams never mix.
  const leaseSide = leaseWorldLog(histories.leases).map((event) => ({
    stream: event.stream,
    events: [envelope(event, event.metadata.actor)],
    expected: 'tracked' as const,
  }));
  return [...enlist, ...merged.flatMap(appendsFor), ...leaseSide];
};

/** Appends generated appends to a real store one by one, with the exact expected revision on tracked streams (across calls). */
export const appenderTo = (store: EventStore) => {
  const revisions = new Map<string, number>();
  return async (appends: ReturnType<typeof appendsOf>): Promise<void> => {
    for (const append of appends) {
      const revision = revisions.get(append.stream) ?? -1;
      const expected = append.expected === 'tracked' ? (revision < 0 ? 'no_stream' : revision) : append.expected;
      const result = await store.appendToStream(append.stream, append.events, expected);
      revisions.set(append.stream, result.nextExpectedRevision);
    }
  };
};
