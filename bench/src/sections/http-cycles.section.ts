import { readFileSync } from 'node:fs';
import { LedgerProcess } from '@ledger/testing';
import type { BenchOptions, BenchSection, Measurement } from '../support/bench-section';
import { JsonClient } from '../support/http-client';
import { percentile, sorted } from '../support/stats';

const CONCURRENCY = [1, 16, 64] as const;

/** Peak resident set size of a process so far (VmHWM), in MiB. */
const peakRssMiB = (pid: number): number => {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};

const storeCounters = async (ledger: LedgerProcess): Promise<{ appends: number; transactions: number }> => {
  const { body } = await ledger.get<string>('/metrics');
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(body)?.[1] ?? NaN);
  return { appends: read('ledger_store_appends_total'), transactions: read('ledger_store_transactions_total') };
};

/**
 * `clients` loops, each on its own node: acquire, deploying, deployed, release, again,
 * until the time is up (a cycle started before then is finished). Every request is timed.
 */
const cycles = async (ledger: LedgerProcess, clients: number, seconds: number, label: string) => {
  const client = new JsonClient(ledger.port, ledger.apiKey, clients);
  const latenciesMs: number[] = [];
  let failures = 0;
  const timedSend = async (method: string, path: string, body: unknown, expected: number) => {
    const started = process.hrtime.bigint();
    const answer = await client.send(method, path, body);
    latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (answer.status !== expected) {
      failures++;
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  };
  const started = process.hrtime.bigint();
  const deadline = Date.now() + seconds * 1000;
  const done = await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      const nodeId = `bench-node-${index}`;
      let count = 0;
      while (Date.now() < deadline) {
        const requestId = `bench-${label}-${clients}-${index}-${count}`;
        const { token } = await timedSend(
          'POST',
          '/v1/allocations',
          { requestId, consumer: { controller: 'bench', model: `m${index}`, machine: String(count) }, nodeId },
          201,
        );
        await timedSend('POST', `/v1/allocations/${token}/deploying`, {}, 200);
        await timedSend('POST', `/v1/allocations/${token}/deployed`, {}, 200);
        await timedSend('POST', `/v1/allocations/${token}/release`, {}, 200);
        count++;
      }
      return count;
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  client.close();
  const ordered = sorted(latenciesMs);
  return { cyclesPerSecond: done.reduce((a, b) => a + b, 0) / elapsed, p50: percentile(ordered, 50, true), p99: percentile(ordered, 99, true), failures };
};

export const httpCyclesSection: BenchSection = {
  name: 'http-cycles',
  description:
    'full command cycles over HTTP on loopback against the real server process (default settings: synchronous=FULL, LOG_LEVEL=info, operator key; rate limit raised): acquire, deploying, deployed, release, each client on its own node; the load generator runs on the same machine; latency is per request',
  async run(options: BenchOptions): Promise<Measurement[]> {
    const ledger = await LedgerProcess.start({ env: { LEDGER_RATE_LIMIT_PER_SECOND: '1000000', LEDGER_RATE_LIMIT_BURST: '1000000' } });
    const measurements: Measurement[] = [];
    try {
      const setup = new JsonClient(ledger.port, ledger.apiKey, 8);
      for (let index = 0; index < Math.max(...CONCURRENCY); index++) {
        const answer = await setup.send('POST', '/v1/nodes', {
          nodeId: `bench-node-${index}`,
          hostname: `bench-node-${index}.maas`,
          cpuCount: 8,
          memoryMb: 16384,
        });
        if (answer.status !== 201) throw new Error(`enlist: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      setup.close();
      const label = Date.now().toString(36);
      for (const clients of CONCURRENCY) {
        const before = await storeCounters(ledger);
        const result = await cycles(ledger, clients, options.httpSeconds, label);
        const after = await storeCounters(ledger);
        if (result.failures > 0) throw new Error(`${result.failures} requests failed with ${clients} clients`);
        options.log(`    ${clients} clients: ${result.cyclesPerSecond.toFixed(1)} cycles/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
        measurements.push(
          { key: `http.${clients}.cycles`, label: `${clients} client(s): cycles`, value: result.cyclesPerSecond, unit: 'cycles/s' },
          { key: `http.${clients}.p50`, label: `${clients} client(s): request latency p50`, value: result.p50, unit: 'ms' },
          { key: `http.${clients}.p99`, label: `${clients} client(s): request latency p99`, value: result.p99, unit: 'ms' },
          {
            key: `http.${clients}.batch`,
            label: `${clients} client(s): appends per transaction (group commit)`,
            value: (after.appends - before.appends) / (after.transactions - before.transactions),
            unit: 'appends',
          },
        );
      }
      measurements.push({ key: 'http.peak-rss', label: 'server peak RSS over the three loads', value: peakRssMiB(ledger.pid), unit: 'MiB' });
      return measurements;
    } finally {
      await ledger.stop();
      ledger.removeData();
    }
  },
};
