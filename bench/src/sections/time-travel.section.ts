import { LedgerProcess } from '@ledger/testing';
import type { BenchSection, Measurement } from '../support/bench-section';
import { JsonClient } from '../support/http-client';
import { benchEvents, GENERATED_SNAPSHOT_EVERY, generatedLedger } from '../support/generated-log';
import { percentile, sorted } from '../support/stats';

const SNAPSHOT_EVERY = GENERATED_SNAPSHOT_EVERY;
const POINTS = 12;
const NODES = 60;
/** Per-node time travel calls: many, so the p99 means something. */
const SCOPED_CALLS = 300;

/** Milliseconds each call took, in order of the calls. */
const latencies = async (calls: (() => Promise<unknown>)[]): Promise<number[]> => {
  const taken: number[] = [];
  for (const call of calls) {
    const started = process.hrtime.bigint();
    await call();
    taken.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return taken;
};

const ok =
  <T = unknown>(what: string) =>
  (answer: { status: number; body: unknown }): T => {
    if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer.body as T;
  };

export const timeTravelSection: BenchSection = {
  name: 'time-travel',
  description:
    `the real ledger on the generated log of ${benchEvents().toLocaleString('en-US')} events, snapshots every ${SNAPSHOT_EVERY.toLocaleString('en-US')}: ` +
    `GET /v1/state?at= at ${POINTS} positions spread over the log (its first page, and ?nodeId= for one node: both fold the whole ledger view), GET /v1/state/nodes/:id?at= (folds only that node's streams) at ${SCOPED_CALLS} node/position pairs, and GET /v1/audit/nodes/:id/timeline for ${NODES} nodes; latency as the client sees it`,
  targets: [
    { key: 'state.scoped-node.p50', atMost: 20, why: "one node's state at a moment, folded from its own streams: median" },
    { key: 'state.scoped-node.p99', atMost: 100, why: "one node's state at a moment, folded from its own streams: p99" },
  ],
  async run(options) {
    const { dataDir } = await generatedLedger(benchEvents(), options.log);
    // Nothing writes into the bench's log: the health timer's first pass is an hour away, and
    // the lease cascade is off (its catch-up of the whole log from position 0 is not what is measured here).
    const ledger = await LedgerProcess.start({
      dataDir,
      env: { LEDGER_SNAPSHOT_EVERY: String(SNAPSHOT_EVERY), LEDGER_TEST_HEALTH_CHECK_INTERVAL_MS: '3600000', LEDGER_LEASE_CASCADE: 'off' },
    });
    const client = new JsonClient(ledger.port, ledger.apiKey, 1);
    try {
      const head = ok<{ store: { head: number } }>('healthz')(await client.send('GET', '/healthz')).store.head;
      // Off the snapshot positions on purpose: each answer folds some events after its snapshot.
      const positions = Array.from({ length: POINTS }, (_, i) => Math.max(1, Math.round(((i + 1) * head) / POINTS) - 3_217));
      const nodes = Array.from({ length: NODES }, (_, i) => `node-${String(1 + ((i * 7919) % Math.max(1, Math.round(head / 200)))).padStart(5, '0')}`);
      const whole = await latencies(positions.map((p) => async () => ok(`state at ${p}`)(await client.send('GET', `/v1/state?at=${p}`))));
      const oneNode = await latencies(
        positions.map((p, i) => async () => ok(`state at ${p}`)(await client.send('GET', `/v1/state?at=${p}&nodeId=${nodes[i]}`))),
      );
      // The review page's question at every cursor move: one node (its stream and its address
      // streams), at a position or a time, for many nodes and moments.
      const nodeCount = Math.max(1, Math.round(head / 200));
      const moments = Array.from({ length: SCOPED_CALLS }, (_, i) => ({
        nodeId: `node-${String(1 + ((i * 104_729) % nodeCount)).padStart(5, '0')}`,
        at: Math.max(1, Math.round((((i * 7_919) % SCOPED_CALLS) + 1) * (head / SCOPED_CALLS))),
      }));
      const scopedNode = await latencies(
        moments.map(
          ({ nodeId, at }) =>
            async () =>
              ok(`node ${nodeId} at ${at}`)(await client.send('GET', `/v1/state/nodes/${nodeId}?at=${at}`)),
        ),
      );
      const times = await latencies(
        moments.slice(0, 60).map(({ nodeId, at }) => async () => {
          const when = ok<{ events: { recordedAt: string }[] }>('time of a position')(await client.send('GET', `/v1/audit/events?after=${at - 1}&limit=1`))
            .events[0]?.recordedAt;
          return ok(`node ${nodeId} at ${when}`)(await client.send('GET', `/v1/state/nodes/${nodeId}?at=${encodeURIComponent(when)}`));
        }),
      );
      const timelines = await latencies(
        nodes.map((nodeId) => async () => ok(`timeline ${nodeId}`)(await client.send('GET', `/v1/audit/nodes/${nodeId}/timeline`))),
      );
      const figure = (key: string, label: string, values: number[], p: number): Measurement => ({
        key,
        label,
        value: percentile(sorted(values), p, true),
        unit: 'ms',
      });
      return [
        figure('state.whole.p50', 'state?at= first page (1,000 entities; the whole fold), median', whole, 50),
        figure('state.whole.p99', 'state?at= first page (1,000 entities; the whole fold), p99', whole, 99),
        figure('state.node.p50', 'state?at=&nodeId= one node, median', oneNode, 50),
        figure('state.node.p99', 'state?at=&nodeId= one node, p99', oneNode, 99),
        figure('state.scoped-node.p50', 'state/nodes/:id?at=P, folds only that node: median', scopedNode, 50),
        figure('state.scoped-node.p99', 'state/nodes/:id?at=P, folds only that node: p99', scopedNode, 99),
        {
          key: 'state.scoped-node.speedup',
          label: 'one node: whole-ledger fold median / own-streams fold median',
          value: percentile(sorted(oneNode), 50, true) / percentile(sorted(scopedNode), 50, true),
          unit: 'x',
        },
        figure('state.scoped-node-by-time.p50', 'state/nodes/:id?at=<time> (includes an audit query for the time): median', times, 50),
        figure('timeline.p50', 'node timeline, median', timelines, 50),
        figure('timeline.p99', 'node timeline, p99', timelines, 99),
      ];
    } finally {
      client.close();
      await ledger.stop();
    }
  },
};
