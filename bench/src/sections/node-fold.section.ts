import { evolveNode, initialNodeState, type NodeEvent, type NodeState } from '@ledger/domain';
import type { BenchSection, Measurement } from '../support/bench-section';

const CYCLES = 5_000;
const WINDOW = 500;

/** One allocation's life on a node, as the command side folds it: acquired (with a requestId), deploying, deployed, released (with one). */
const cycle = (index: number): NodeEvent[] => {
  const token = `bench-node~${index + 1}~${index.toString(36).padStart(22, 'x')}`;
  const base = { nodeId: 'bench-node', token, epoch: index + 1 };
  const at = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
  return [
    {
      type: 'NodeAcquired',
      data: {
        ...base,
        consumer: { controller: 'bench', model: 'm', machine: String(index) },
        acquiredAt: at,
        reservationId: null,
        request: { requestId: `acquire-${index}`, fingerprint: 'f' },
      },
    },
    { type: 'DeploymentStarted', data: { ...base, at } },
    { type: 'NodeDeployed', data: { ...base, at } },
    { type: 'AllocationReleased', data: { ...base, ending: 'released', at, request: { requestId: `release-${index}`, fingerprint: 'f' }, pendingCleanup: [] } },
  ];
};

/**
 * The command side folds a node's stream (from its cached state onwards) before each
 * command: what one event costs there must not grow with the node's history. Folds one
 * node through 5,000 allocations and compares the cost per event over its first 500
 * with its last 500: the early window is the baseline, measured in the same run.
 */
export const nodeFoldSection: BenchSection = {
  name: 'node-fold',
  description: `one node's stream folded through ${CYCLES.toLocaleString('en-US')} allocation cycles (4 events each, 2 with a requestId) with the domain's evolveNode; cost per event over the first ${WINDOW} cycles and over the last ${WINDOW}`,
  targets: [
    { key: 'node-fold.late-vs-early', atMost: 2, why: 'an event costs the same to fold on a node with 4,500 past allocations as on a new one (within 2x)' },
  ],
  async run(): Promise<Measurement[]> {
    const events = Array.from({ length: CYCLES }, (_, index) => cycle(index));
    const enlisted = (): NodeState =>
      evolveNode(initialNodeState(), {
        type: 'NodeEnlisted',
        data: { nodeId: 'bench-node', hostname: 'bench-node.maas', arch: 'amd64', cpuCount: 8, memoryMb: 16_384, tags: [], zone: 'default' },
      });
    let state = enlisted();
    const foldWindow = (from: number, to: number): number => {
      const started = process.hrtime.bigint();
      for (let index = from; index < to; index++) for (const event of events[index]) state = evolveNode(state, event);
      return Number(process.hrtime.bigint() - started) / 1e3 / ((to - from) * 4);
    };
    // Warm the JIT on a node of its own first, so the early window is not paying for compilation.
    foldWindow(0, WINDOW);
    state = enlisted();
    const early = foldWindow(0, WINDOW);
    foldWindow(WINDOW, CYCLES - WINDOW);
    const late = foldWindow(CYCLES - WINDOW, CYCLES);
    if (state.epoch !== CYCLES) throw new Error(`folded to epoch ${state.epoch}, not ${CYCLES}`);
    return [
      { key: 'node-fold.early', label: `per event, first ${WINDOW} cycles`, value: early, unit: 'µs' },
      { key: 'node-fold.late', label: `per event, last ${WINDOW} cycles (${CYCLES - WINDOW} allocations before)`, value: late, unit: 'µs' },
      { key: 'node-fold.late-vs-early', label: 'late / early', value: late / early, unit: 'ratio' },
    ];
  },
};
