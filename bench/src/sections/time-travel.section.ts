import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteReadOnlyEventStore } from '@ledger/event-store';
import { openReadModelDatabase, rebuildReadModels } from '@ledger/projections';
import { LedgerProcess } from '@ledger/testing';
import type { BenchSection, Measurement } from '../support/bench-section';
import { JsonClient } from '../support/http-client';
import { benchEvents, generatedLog } from '../support/generated-log';
import { percentile, sorted } from '../support/stats';

const SNAPSHOT_EVERY = 10_000;
const POINTS = 12;
const NODES = 60;

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

const ok = (what: string) => (answer: { status: number; body: any }) => {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body;
};

export const timeTravelSection: BenchSection = {
  name: 'time-travel',
  description:
    `the real ledger on the generated log of ${benchEvents().toLocaleString('en-US')} events, snapshots every ${SNAPSHOT_EVERY.toLocaleString('en-US')}: ` +
    `GET /v1/state?at= at ${POINTS} positions spread over the log (the whole state, and ?nodeId= for one node), and GET /v1/audit/nodes/:id/timeline for ${NODES} nodes; latency as the client sees it`,
  async run(options) {
    const { dataDir, eventFile } = await generatedLog(benchEvents(), options.log);
    const readModels = join(dataDir, 'read-models.sqlite');
    if (!existsSync(readModels)) {
      options.log('  building the read models once (ledger-cli rebuild) so the ledger starts caught up');
      const store = SqliteReadOnlyEventStore.open({ file: eventFile });
      const db = openReadModelDatabase(readModels, { mode: 'bulk' });
      await rebuildReadModels({ store, db, snapshotEvery: SNAPSHOT_EVERY });
      db.close();
      await store.close();
    }
    // Nothing writes into the bench's log: the health timer's first pass is an hour away, and
    // the lease cascade is off (its catch-up of the whole log from position 0 is not what is measured here).
    const ledger = await LedgerProcess.start({
      dataDir,
      env: { LEDGER_SNAPSHOT_EVERY: String(SNAPSHOT_EVERY), LEDGER_HEALTH_CHECK_INTERVAL_MS: '3600000', LEDGER_LEASE_CASCADE: 'off' },
    });
    const client = new JsonClient(ledger.port, ledger.apiKey, 1);
    try {
      const head = ok('healthz')(await client.send('GET', '/healthz')).store.head as number;
      // Off the snapshot positions on purpose: each answer folds some events after its snapshot.
      const positions = Array.from({ length: POINTS }, (_, i) => Math.max(1, Math.round(((i + 1) * head) / POINTS) - 3_217));
      const nodes = Array.from({ length: NODES }, (_, i) => `node-${String(1 + ((i * 7919) % Math.max(1, Math.round(head / 200)))).padStart(5, '0')}`);
      const whole = await latencies(positions.map((p) => async () => ok(`state at ${p}`)(await client.send('GET', `/v1/state?at=${p}`))));
      const oneNode = await latencies(
        positions.map((p, i) => async () => ok(`state at ${p}`)(await client.send('GET', `/v1/state?at=${p}&nodeId=${nodes[i]}`))),
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
        figure('state.whole.p50', 'state?at= whole state, median', whole, 50),
        figure('state.whole.p99', 'state?at= whole state, p99', whole, 99),
        figure('state.node.p50', 'state?at=&nodeId= one node, median', oneNode, 50),
        figure('state.node.p99', 'state?at=&nodeId= one node, p99', oneNode, 99),
        figure('timeline.p50', 'node timeline, median', timelines, 50),
        figure('timeline.p99', 'node timeline, p99', timelines, 99),
      ];
    } finally {
      client.close();
      await ledger.stop();
    }
  },
};
