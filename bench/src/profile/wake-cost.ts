/**
 * What waking another thread costs on this machine: the main thread posts a small message to
 * a worker thread that waits for it, as the ledger hands each commit to its writer, after a
 * gap in which the worker's core may go idle (the time a client takes to turn round), spent
 * asleep or spinning on the main thread. For each gap it prints how long `postMessage` itself
 * took (the waker's share: the system call that wakes the worker, on a VM the interrupt sent
 * to a halted virtual CPU) and how long until the worker ran the message (the wakee's share).
 * Then, each after a 500 µs gap asleep, posts that the main thread follows with its own work
 * (a spin of so many µs, as the ledger's main thread goes on with deferred work after each
 * hand-off): a worker the kernel queues behind it waits for that work to end.
 *
 *   node dist/bench/src/profile/wake-cost.js [messages=3000] [gaps µs=0,500,2000] [busy after µs=100,300] [out.md]
 *
 * Both servers of the http-cycles section pay this on each commit (main to writer, writer
 * back) and on each answer (a socket write waking the load generator), so it bounds what
 * the ledger's 1-client p50 can lose to the baseline's only through how often it wakes.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { percentile } from '../support/stats';

/** Microseconds on a clock both threads share (performance.now() starts at each thread's own origin). */
const nowUs = (): number => (performance.timeOrigin + performance.now()) * 1000;

interface Measured {
  gapUs: number;
  idle: 'sleep' | 'spin';
  busyAfterUs: number;
  postUs: number[];
  deliveryUs: number[];
}

const spinFor = (us: number): void => {
  const until = nowUs() + us;
  while (nowUs() < until);
};

/** Posts `messages` to a fresh worker, each `gapUs` after the last one's echo (then busy `busyAfterUs`), and times both shares. */
const measure = (messages: number, gapUs: number, idle: 'sleep' | 'spin', busyAfterUs = 0): Promise<Measured> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(__filename);
    const measured: Measured = { gapUs, idle, busyAfterUs, postUs: [], deliveryUs: [] };
    let sentAt = 0;
    const send = () => {
      sentAt = nowUs();
      worker.postMessage(sentAt);
      measured.postUs.push(nowUs() - sentAt);
      if (busyAfterUs > 0) spinFor(busyAfterUs);
    };
    worker.on('message', (ranAt: number) => {
      measured.deliveryUs.push(ranAt - sentAt);
      if (measured.deliveryUs.length === messages) {
        void worker.terminate().then(() => resolve(measured), reject);
        return;
      }
      if (gapUs === 0) send();
      else if (idle === 'spin') {
        spinFor(gapUs);
        send();
      } else setTimeout(send, gapUs / 1000);
    });
    worker.once('error', reject);
    send();
  });

const row = ({ gapUs, idle, busyAfterUs, postUs, deliveryUs }: Measured): string =>
  `| ${gapUs.toLocaleString('en-US')} | ${gapUs === 0 ? '-' : idle} | ${busyAfterUs} | ${[50, 90]
    .map((p) => percentile(postUs, p).toFixed(1))
    .join(' | ')} | ${[50, 90].map((p) => percentile(deliveryUs, p).toFixed(1)).join(' | ')} |`;

const main = async (): Promise<void> => {
  const [messagesArg, gapsArg, busyAfterArg, out] = process.argv.slice(2);
  const messages = Number(messagesArg ?? 3_000);
  const gaps = (gapsArg ?? '0,500,2000').split(',').map(Number);
  const busyAfter = (busyAfterArg ?? '100,300').split(',').filter(Boolean).map(Number);
  if (!Number.isInteger(messages) || messages < 10 || [...gaps, ...busyAfter].some((us) => !Number.isFinite(us) || us < 0)) {
    throw new Error('usage: wake-cost.js [messages >= 10] [gaps in µs, comma-separated] [busy after µs, comma-separated] [out.md]');
  }
  const rows: string[] = [];
  for (const gap of gaps) {
    for (const idle of gap === 0 ? (['sleep'] as const) : (['sleep', 'spin'] as const)) rows.push(row(await measure(messages, gap, idle)));
  }
  for (const busy of busyAfter) rows.push(row(await measure(messages, 500, 'sleep', busy)));
  const report =
    `# What waking a thread costs here\n\n` +
    `\`node dist/bench/src/profile/wake-cost.js ${messages} ${gaps.join(',')} ${busyAfter.join(',')}\`: ${messages.toLocaleString('en-US')} messages a row, ` +
    `each posted a gap after the worker echoed the last; load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}.\n\n` +
    `| gap (µs) | main thread in the gap | main thread busy after the post (µs) | postMessage p50 (µs) | p90 | until the worker ran it p50 (µs) | p90 |\n|---:|---|---:|---:|---:|---:|---:|\n${rows.join('\n')}\n`;
  if (out) writeFileSync(out, report);
  process.stdout.write(report);
};

if (isMainThread) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
} else {
  parentPort!.on('message', () => parentPort!.postMessage(nowUs()));
}
