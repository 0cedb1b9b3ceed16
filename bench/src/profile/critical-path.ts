/**
 * Where a token command's latency goes at one client, stage by stage, in the ledger, in
 * the bench's baseline and in the baseline behind NestJS on fastify (the framework's floor,
 * nest-floor-server.ts), in the same run with the same load (the bench's command cycle):
 * each server runs with critical-path-preload.js, which stamps each token command on its way
 * through. Each round gives each server 2 s of unmeasured load, then a measured window; the
 * figures are medians per stage, then the median (min-max) over rounds. A CPU profile says
 * what the process spends; this says what a waiting client waits for.
 *
 *   node dist/bench/src/profile/critical-path.js [rounds=3] [seconds=5] [out.md]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess } from '@ledger/testing';
import { BaselineProcess } from '../baseline/baseline-process';
import { JsonClient } from '../support/http-client';
import { commandCycles, enlistNodes } from '../support/command-cycles';
import { waitForFile } from '../support/wait-for-file';
import { median, spread } from '../support/stats';
import { JIT_WARM_UP_SECONDS } from '../support/jit-warm-up';
import { CRITICAL_PATH_STEPS, type CriticalPathStep, type Stamps } from './critical-path-preload';

const WARM_UP_SECONDS = 2;
/** As the bench's http-cycles section: one node per client of its biggest load. */
const NODES = 64;
/** The stages every server has: the ledger's finer ones fall inside the second. */
const COMMON_STEPS: CriticalPathStep[] = [
  'request',
  'body read',
  'append submitted',
  'writer called',
  'writer answered',
  'append committed',
  'head written',
  'response ended',
  'response finished',
];

interface Server {
  name: ServerName;
  pid: number;
  port: number;
  apiKey: string | null;
  profileFile: string;
}

/** The bare baseline, the same commands behind NestJS on fastify (nest-floor-server.ts), the ledger. */
const SERVER_NAMES = ['baseline', 'nest floor', 'ledger'] as const;
type ServerName = (typeof SERVER_NAMES)[number];

/** Stage name -> this window's median µs, between each step present and the next one present among `steps`. */
const stageMedians = (requests: Stamps[], steps: readonly CriticalPathStep[]): Map<string, number> => {
  const present = steps.filter((step) => requests.length > 0 && requests.every((stamps) => stamps[step] !== undefined));
  const stages = new Map<string, number>();
  for (let i = 1; i < present.length; i++) {
    stages.set(`${present[i - 1]} → ${present[i]}`, median(requests.map((stamps) => stamps[present[i]]! - stamps[present[i - 1]]!)));
  }
  if (present.length > 1) stages.set('**request → response finished**', median(requests.map((s) => s['response finished']! - s.request!)));
  return stages;
};

/** One measured window on `server`: the stamps its preload collected, and the client's p50 of token commands. */
const measure = async (server: Server, seconds: number, round: number): Promise<{ requests: Stamps[]; clientP50Us: number }> => {
  const client = new JsonClient(server.port, server.apiKey, 1);
  try {
    // The first round's warm-up is also the compiler's (jit-warm-up.ts); later rounds only meet the load again.
    await commandCycles(client, {
      clients: 1,
      seconds: round === 0 ? JIT_WARM_UP_SECONDS : WARM_UP_SECONDS,
      nodePrefix: 'p',
      requestPrefix: `p-${round}-warm-up`,
    });
    process.kill(server.pid, 'SIGWINCH');
    const latencies = await commandCycles(client, { clients: 1, seconds, nodePrefix: 'p', requestPrefix: `p-${round}` });
    process.kill(server.pid, 'SIGWINCH');
    await waitForFile(server.profileFile, `${server.name} wrote no stamps`, 30_000);
    const requests = JSON.parse(readFileSync(server.profileFile, 'utf8')) as Stamps[];
    rmSync(server.profileFile);
    // Every fourth latency is an acquire; the rest are token commands, as the preload stamps.
    return { requests, clientP50Us: median(latencies.filter((_, index) => index % 4 !== 0)) * 1000 };
  } finally {
    client.close();
  }
};

const formatSpread = (runs: number[]): string => {
  if (runs.length === 0) return '';
  const { median: middle, min, max } = spread(runs);
  return `${Math.round(middle)} (${Math.round(min)}-${Math.round(max)})`;
};

const table = (stages: string[], rows: Record<ServerName, Map<string, number[]>>): string =>
  [
    `| stage | ${SERVER_NAMES.map((name) => `${name} µs`).join(' | ')} |`,
    `|---|${SERVER_NAMES.map(() => '---:').join('|')}|`,
    ...stages.map((stage) => `| ${stage} | ${SERVER_NAMES.map((name) => formatSpread(rows[name].get(stage) ?? [])).join(' | ')} |`),
  ].join('\n');

/** An empty map of stage figures for each server in SERVER_NAMES. */
const byServer = (): Record<ServerName, Map<string, number[]>> =>
  Object.fromEntries(SERVER_NAMES.map((name) => [name, new Map<string, number[]>()])) as Record<ServerName, Map<string, number[]>>;

const main = async (): Promise<void> => {
  const [roundsArg, secondsArg, out] = process.argv.slice(2);
  const rounds = Number(roundsArg ?? 3);
  const seconds = Number(secondsArg ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'ledger-critical-path-'));
  const preload = ['-r', join(__dirname, 'critical-path-preload.js')];
  const load = loadavg()[0];
  const ledger = await LedgerProcess.start({
    nodeArgs: preload,
    env: { LEDGER_CRITICAL_PATH_FILE: join(dir, 'ledger.json'), LEDGER_RATE_LIMIT_PER_SECOND: '1000000', LEDGER_RATE_LIMIT_BURST: '1000000' },
  });
  const baseline = await BaselineProcess.start({ nodeArgs: preload, env: { LEDGER_CRITICAL_PATH_FILE: join(dir, 'baseline.json') } });
  const floor = await BaselineProcess.start({ server: 'nest-floor', nodeArgs: preload, env: { LEDGER_CRITICAL_PATH_FILE: join(dir, 'floor.json') } });
  const servers: Server[] = [
    { name: 'baseline', pid: baseline.pid, port: baseline.port, apiKey: ledger.apiKey, profileFile: join(dir, 'baseline.json') },
    { name: 'nest floor', pid: floor.pid, port: floor.port, apiKey: ledger.apiKey, profileFile: join(dir, 'floor.json') },
    { name: 'ledger', pid: ledger.pid, port: ledger.port, apiKey: ledger.apiKey, profileFile: join(dir, 'ledger.json') },
  ];
  const fine = byServer();
  const common = byServer();
  let requests = 0;
  try {
    for (const server of servers) {
      const setup = new JsonClient(server.port, server.apiKey, 8);
      await enlistNodes(setup, NODES, 'p');
      setup.close();
    }
    for (let round = 0; round < rounds; round++) {
      for (const server of servers) {
        const window = await measure(server, seconds, round);
        requests += window.requests.length;
        const add = (into: Map<string, number[]>, stages: Map<string, number>) => {
          for (const [stage, us] of stages) into.set(stage, [...(into.get(stage) ?? []), us]);
        };
        add(fine[server.name], stageMedians(window.requests, CRITICAL_PATH_STEPS));
        add(common[server.name], stageMedians(window.requests, COMMON_STEPS));
        add(common[server.name], new Map([['client: token command p50', window.clientP50Us]]));
      }
    }
  } finally {
    await ledger.stop();
    ledger.removeData();
    await baseline.stop();
    await floor.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const summary = [
    `# A token command's latency by stage, 1 client`,
    '',
    `\`node dist/bench/src/profile/critical-path.js ${rounds} ${seconds}\`: ${rounds} rounds of ${seconds} s per server after ${WARM_UP_SECONDS} s of warm-up each (${JIT_WARM_UP_SECONDS} s before the first), ${requests} token commands stamped; load average ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end.`,
    "Each figure is the median over rounds (min-max) of a round's median; medians of stages do not add up to the median of the whole.",
    '',
    '## The stages every server has',
    '',
    table([...common.ledger.keys()], common),
    '',
    "## The ledger's stages",
    '',
    table([...fine.ledger.keys()], fine),
    '',
  ].join('\n');
  if (out) writeFileSync(out, summary);
  process.stdout.write(summary);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
