/**
 * The 1-client p50 of the bench's baseline and of one or more ledgers (each with its own
 * environment: a setting A/B), measured in short slices taken in turn, so every server meets
 * the same spells of a noisy host: on this machine a 5-8 s window of the same server at one
 * client gave p50s a factor of two apart, which a comparison of whole windows cannot tell from
 * a change. Each slice is one client's command cycle (acquire, deploying, deployed, release)
 * for `seconds`, started once every server is idle; each server's latencies are pooled over its slices; the ratio is each ledger's
 * pooled p50 over the baseline's, with the median (min-max) over rounds of the per-round ratio.
 *
 *   node dist/bench/src/profile/interleaved-latency.js [rounds=20] [seconds=1] [--nest-floor] [ENV=V,ENV=V ...] [-- out.md]
 *
 * Each further argument is one ledger, started with those variables (none: one ledger as it is).
 * `--nest-floor` adds the baseline's commands behind NestJS on fastify (nest-floor-server.ts):
 * what the framework alone costs, between the bare baseline and the ledger.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { LedgerProcess } from '@ledger/testing';
import { BaselineProcess } from '../baseline/baseline-process';
import { JsonClient } from '../support/http-client';
import { commandCycles, enlistNodes } from '../support/command-cycles';
import { median, percentile, spread } from '../support/stats';
import { untilIdle } from '../support/process-idle';
import { JIT_WARM_UP_SECONDS } from '../support/jit-warm-up';

/** One client acquires one node (`i-0`). */
const NODES = 1;

interface Measured {
  name: string;
  port: number;
  /** The baselines take any key: they get the first ledger's, so every request carries the same header. */
  apiKey: string | null;
  latencies: number[];
  roundP50s: number[];
}

const envOf = (spec: string): Record<string, string> =>
  Object.fromEntries(
    spec
      .split(',')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  const split = args.indexOf('--');
  const [roundsArg, secondsArg, ...rest] = split === -1 ? args : args.slice(0, split);
  const nestFloor = rest.includes('--nest-floor');
  const specs = rest.filter((arg) => arg !== '--nest-floor');
  const out = split === -1 ? undefined : args[split + 1];
  const rounds = Number(roundsArg ?? 20);
  const seconds = Number(secondsArg ?? 1);
  const variants = specs.length > 0 ? specs : [''];
  const load = loadavg()[0];
  const ledgers: LedgerProcess[] = [];
  const baseline = await BaselineProcess.start({});
  const floors: BaselineProcess[] = [];
  try {
    if (nestFloor) floors.push(await BaselineProcess.start({ server: 'nest-floor' }));
    for (const spec of variants) {
      ledgers.push(await LedgerProcess.start({ env: { LEDGER_RATE_LIMIT_PER_SECOND: '1000000', LEDGER_RATE_LIMIT_BURST: '1000000', ...envOf(spec) } }));
    }
    const apiKey = ledgers[0].apiKey;
    const servers: Measured[] = [
      { name: 'baseline', port: baseline.port, apiKey, latencies: [], roundP50s: [] },
      ...floors.map((floor) => ({ name: 'NestJS on fastify, the baseline behind it', port: floor.port, apiKey, latencies: [], roundP50s: [] })),
      ...ledgers.map((ledger, index) => ({
        name: `ledger ${variants[index] || '(as it is)'}`,
        port: ledger.port,
        apiKey: ledger.apiKey,
        latencies: [],
        roundP50s: [],
      })),
    ];
    const clients = servers.map((server) => new JsonClient(server.port, server.apiKey, 1));
    for (const [index, client] of clients.entries()) {
      await enlistNodes(client, NODES, 'i');
      await commandCycles(client, { clients: 1, seconds: JIT_WARM_UP_SECONDS, nodePrefix: 'i', requestPrefix: `i-${index}-warm-up` });
    }
    for (let round = 0; round < rounds; round++) {
      // Each round starts with another server, so none is always first after the idle gap.
      for (let step = 0; step < servers.length; step++) {
        const index = (round + step) % servers.length;
        // As the bench's section does: no slice starts while a server works off the last one
        // (the ledger's read models fold after its answers), which would slow the next server's.
        await untilIdle([baseline.pid, ...floors.map((floor) => floor.pid), ...ledgers.map((ledger) => ledger.pid)]);
        const latencies = await commandCycles(clients[index], { clients: 1, seconds, nodePrefix: 'i', requestPrefix: `i-${index}-${round}` });
        servers[index].latencies.push(...latencies);
        servers[index].roundP50s.push(median(latencies));
      }
    }
    clients.forEach((client) => client.close());
    const base = servers[0];
    const lines = [
      '# The 1-client p50, interleaved',
      '',
      `\`node dist/bench/src/profile/interleaved-latency.js ${[rounds, seconds, ...rest].join(' ')}\`: ${rounds} rounds, each a ${seconds} s slice of one client's command cycle on every server in turn; load average ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end.`,
      '',
      '| server | requests | pooled p50 ms | p99 ms | / baseline (pooled) | / baseline by round: median (min-max) |',
      '|---|---:|---:|---:|---:|---:|',
      ...servers.map((server) => {
        const byRound = spread(server.roundP50s.map((p50, round) => p50 / base.roundP50s[round]));
        return `| ${server.name} | ${server.latencies.length} | ${median(server.latencies).toFixed(3)} | ${percentile(server.latencies, 99).toFixed(2)} | ${(median(server.latencies) / median(base.latencies)).toFixed(2)} | ${byRound.median.toFixed(2)} (${byRound.min.toFixed(2)}-${byRound.max.toFixed(2)}) |`;
      }),
      '',
    ].join('\n');
    if (out) writeFileSync(out, lines);
    process.stdout.write(lines);
  } finally {
    for (const ledger of ledgers) {
      await ledger.stop();
      ledger.removeData();
    }
    for (const floor of floors) await floor.stop();
    await baseline.stop();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
