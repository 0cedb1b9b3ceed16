/**
 * The ledger's CPU per request, as the kernel counts it: utime+stime of the server's main
 * thread and of the whole process (/proc, Linux) over a window of the bench's command cycle,
 * divided by the requests completed. A profile samples wall-clock time, which a busy machine
 * inflates; this does not count time spent waiting for a core, so A/B comparisons of two
 * builds on a shared machine read better from it.
 *
 *   node dist/bench/src/profile/cpu-per-request.js [clients=64] [seconds=10] [node flags for the server...]
 *   BASELINE=1 node dist/bench/src/profile/cpu-per-request.js [clients] [seconds]   (the bench's baseline server instead)
 *   WARM_UP_SECONDS=2 ...   (an unmeasured warm-up other than the default, JIT_WARM_UP_SECONDS)
 *
 * Prints one JSON line: requests/s, p50 latency, main thread and whole process µs per
 * request, the same for each thread (by thread id and name, in the order they started:
 * the main thread, V8's, libuv's, then the store's writer and the audit-index thread), the
 * time each thread waited for a core per request, load average. Run each build's copy in turn
 * to compare builds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { LedgerProcess } from '@ledger/testing';
import { BaselineProcess } from '../baseline/baseline-process';
import { JsonClient } from '../support/http-client';
import { commandCycles, enlistNodes } from '../support/command-cycles';
import { JIT_WARM_UP_SECONDS } from '../support/jit-warm-up';

/** A figure of each thread of a process, by "tid name" (Linux's comm, in the order the threads were started). */
const perThread = (pid: number, read: (taskDir: string) => number): Map<string, number> => {
  const threads = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(`${tid} ${readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()}`, read(`/proc/${pid}/task/${tid}`));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
};

/** CPU ms of each thread. */
const threadsCpuMs = (pid: number): Map<string, number> => perThread(pid, (task) => cpuMs(`${task}/stat`));

/**
 * Ms each thread spent runnable but waiting for a core (schedstat's run delay): what a thread
 * on the critical path, the store's writer, loses to the others on a small machine.
 */
const threadsWaitMs = (pid: number): Map<string, number> => perThread(pid, (task) => Number(readFileSync(`${task}/schedstat`, 'utf8').split(' ')[1]) / 1e6);

/** utime+stime in ms (clock ticks of 10 ms) from a /proc stat file. */
const cpuMs = (statFile: string): number => {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** Unmeasured load before the measured window (WARM_UP_SECONDS, default JIT_WARM_UP_SECONDS): V8 compiles the hot paths meanwhile. */
const WARM_UP_SECONDS = Number(process.env.WARM_UP_SECONDS ?? JIT_WARM_UP_SECONDS);

/** The bench's baseline server (no API key, no node flags), with what this script uses of a LedgerProcess. */
const baselineServer = async () => {
  const baseline = await BaselineProcess.start();
  return { pid: baseline.pid, port: baseline.port, apiKey: '', stop: () => baseline.stop(), removeData: () => undefined };
};

const main = async (): Promise<void> => {
  const [clientsArg, secondsArg, ...nodeArgs] = process.argv.slice(2);
  const clients = Number(clientsArg ?? 64);
  const seconds = Number(secondsArg ?? 10);
  const ledger =
    process.env.BASELINE === '1'
      ? await baselineServer()
      : await LedgerProcess.start({ nodeArgs, env: { LEDGER_RATE_LIMIT_PER_SECOND: '1000000', LEDGER_RATE_LIMIT_BURST: '1000000' } });
  const mainThread = `/proc/${ledger.pid}/task/${ledger.pid}/stat`;
  const wholeProcess = `/proc/${ledger.pid}/stat`;
  try {
    const client = new JsonClient(ledger.port, ledger.apiKey, clients);
    await enlistNodes(client, clients, 'c');
    for (const phase of ['warm-up', 'measure'] as const) {
      const [main0, all0, threads0, waits0, started] = [
        cpuMs(mainThread),
        cpuMs(wholeProcess),
        threadsCpuMs(ledger.pid),
        threadsWaitMs(ledger.pid),
        performance.now(),
      ];
      const latencies = await commandCycles(client, {
        clients,
        seconds: phase === 'warm-up' ? WARM_UP_SECONDS : seconds,
        nodePrefix: 'c',
        requestPrefix: `c-${phase}`,
      });
      if (phase === 'measure') {
        const requests = latencies.length;
        latencies.sort((a, b) => a - b);
        const perRequest = (ms: number) => Math.round((ms * 1000) / requests);
        const perRequestByThread = (now: Map<string, number>, before: Map<string, number>) =>
          Object.fromEntries([...now].map(([thread, ms]) => [thread, perRequest(ms - (before.get(thread) ?? 0))]).filter(([, us]) => (us as number) > 0));
        const line = {
          clients,
          requests,
          requestsPerSecond: Math.round(requests / ((performance.now() - started) / 1000)),
          p50Ms: Number(latencies[Math.floor(requests / 2)].toFixed(2)),
          mainThreadUsPerRequest: perRequest(cpuMs(mainThread) - main0),
          processUsPerRequest: perRequest(cpuMs(wholeProcess) - all0),
          threadsUsPerRequest: perRequestByThread(threadsCpuMs(ledger.pid), threads0),
          threadsWaitUsPerRequest: perRequestByThread(threadsWaitMs(ledger.pid), waits0),
          loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
        };
        process.stdout.write(`${JSON.stringify(line)}\n`);
      }
    }
    client.close();
  } finally {
    await ledger.stop();
    ledger.removeData();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
