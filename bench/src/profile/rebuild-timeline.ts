/**
 * Where a `ledger-cli rebuild` spends its time: the rebuild of the bench's generated log
 * (LEDGER_BENCH_EVENTS, one million by default) as the CLI runs it, with the step each
 * thread ends and when, the CPU each thread had spent by then (Linux, /proc/self/task),
 * and each thread's share of a core over the run, against the wall.
 *
 *   node dist/bench/src/profile/rebuild-timeline.js [out.md]
 *
 * Like `ledger-cli rebuild`, it runs itself again with the CLI's heap flags (bulk-heap.ts)
 * unless a semi-space size is given (`node --max-semi-space-size=16 ...` for Node's default).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { SqliteReadOnlyEventStore } from '@ledger/event-store';
import { MAX_QUEUED_FOR_THREAD, monotonicMs, openReadModelDatabase, rebuildReadModels, type RebuildStep } from '@ledger/projections';
import { hasChosenHeap, relaunchWithBulkHeap } from '../../../apps/ledger-cli/src/bulk-heap';
import { benchEvents, generatedLog } from '../support/generated-log';
import { tempDatabase } from '../support/temp-file';

const TICKS_PER_SECOND = 100;
const SNAPSHOT_EVERY = 10_000;

/** Each thread's name (Linux's `comm`: "V8 DefaultWorke", "libuv-worker", ...), by thread id, as last seen. */
const threadNames = new Map<string, string>();

/** CPU seconds of every thread of this process, by thread id. */
const threadCpu = (): Map<string, number> => {
  const cpu = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      threadNames.set(tid, stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(tid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return cpu;
};

const main = async (): Promise<void> => {
  const out = process.argv[2];
  const { eventFile } = await generatedLog(benchEvents(), (line) => console.error(line));
  const store = SqliteReadOnlyEventStore.open({ file: eventFile });
  const temp = tempDatabase('rebuild-timeline');
  const db = openReadModelDatabase(temp.file, { mode: 'bulk' });
  const mainTid = String(process.pid);
  const before = threadCpu();
  // Threads end (the audit one does before the promotion): keep the last reading of each.
  const seen = new Map<string, number>();
  const samples: { at: number; cpu: Map<string, number> }[] = [];
  const sample = (): Map<string, number> => {
    const now = threadCpu();
    for (const [tid, seconds] of now) seen.set(tid, seconds - (before.get(tid) ?? 0));
    const copy = new Map(seen);
    samples.push({ at: monotonicMs(), cpu: copy });
    return copy;
  };
  const steps: RebuildStep[] = [];
  const load = loadavg()[0];
  const started = monotonicMs();
  sample();
  // The fold never yields to the event loop (its pages come synchronously), so it samples after each page, every 250 ms at most;
  // the waits after the fold yield, and a timer samples them.
  const sampleNow = () => samples[samples.length - 1].at <= monotonicMs() - 250 && sample();
  const sampler = setInterval(sampleNow, 250);
  try {
    let mostQueued = 0;
    const result = await rebuildReadModels({
      store,
      db,
      snapshotEvery: SNAPSHOT_EVERY,
      auditOnWorker: { eventFile, ledgerUpcasters: false },
      onProgress: sampleNow,
      onQueued: (chars) => {
        mostQueued = Math.max(mostQueued, chars);
      },
      onStep: (step) => {
        steps.push(step);
        sample();
      },
    });
    clearInterval(sampler);
    db.close();
    const wall = (monotonicMs() - started) / 1000;
    const final = sample();
    const audit = [...final].filter(([tid]) => tid !== mainTid && !before.has(tid)).sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    const cpuOf = (cpu: Map<string, number>, tid: string) => cpu.get(tid) ?? 0;
    // The audit thread's steps reach the main thread when it next yields: its CPU then is the sample nearest the step's own time.
    const cpuAt = (at: number) => samples.reduce((best, next) => (Math.abs(next.at - at) < Math.abs(best.at - at) ? next : best)).cpu;
    const total = [...final.values()].reduce((sum, seconds) => sum + seconds, 0);
    // The other threads by name: V8's GC helpers, SQLite's sorter threads, libuv's pool.
    const others = new Map<string, number>();
    for (const [tid, seconds] of final) {
      if (tid === mainTid || tid === audit) continue;
      const name = threadNames.get(tid) ?? '?';
      others.set(name, (others.get(name) ?? 0) + seconds);
    }
    const otherList = [...others].filter(([, seconds]) => seconds >= 0.05).sort((a, b) => b[1] - a[1]);
    const lines = [
      `# Timeline of a rebuild of ${result.events.toLocaleString('en-US')} events`,
      '',
      `\`node dist/bench/src/profile/rebuild-timeline.js\`: ${wall.toFixed(1)} s wall; CPU ${total.toFixed(1)} s ` +
        `(main thread ${cpuOf(final, mainTid).toFixed(1)} s, audit thread ${cpuOf(final, audit).toFixed(1)} s, others ${(total - cpuOf(final, mainTid) - cpuOf(final, audit)).toFixed(1)} s); ` +
        `load average ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end.`,
      '',
      `Other threads, CPU by name: ${otherList.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ') || 'none'}. ` +
        `Most queued for the audit thread as a page was posted: ${(mostQueued / 1e6).toFixed(1)} M characters (the bound: ${(MAX_QUEUED_FOR_THREAD / 1e6).toFixed(1)} M).`,
      '',
      '| at (s) | thread | step done | main thread CPU (s) | audit thread CPU (s) |',
      '|---:|---|---|---:|---:|',
      ...steps
        .sort((a, b) => a.at - b.at)
        .map(
          (step) =>
            `| ${((step.at - started) / 1000).toFixed(2)} | ${step.thread} | ${step.step} | ${cpuOf(cpuAt(step.at), mainTid).toFixed(1)} | ${cpuOf(cpuAt(step.at), audit).toFixed(1)} |`,
        ),
      '',
      'Share of a core, per 2-second window:',
      '',
      '| window (s) | main thread | audit thread |',
      '|---|---:|---:|',
    ];
    let from = samples[0];
    for (const next of samples) {
      if (next.at - from.at < 2000 && next !== samples[samples.length - 1]) continue;
      const span = (next.at - from.at) / 1000;
      if (span <= 0) continue;
      const share = (tid: string) => `${Math.round(((cpuOf(next.cpu, tid) - cpuOf(from.cpu, tid)) / span) * 100)}%`;
      lines.push(`| ${((from.at - started) / 1000).toFixed(0)}-${((next.at - started) / 1000).toFixed(0)} | ${share(mainTid)} | ${share(audit)} |`);
      from = next;
    }
    const text = lines.join('\n');
    console.log(text);
    if (out) writeFileSync(out, `${text}\n`);
  } finally {
    clearInterval(sampler);
    if (db.open) db.close();
    temp.done();
    await store.close();
  }
};

(hasChosenHeap() ? main() : relaunchWithBulkHeap(__filename, process.argv.slice(2))).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
