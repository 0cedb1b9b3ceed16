/**
 * What writing a rebuild's whole-state checkpoint costs the promotion's transaction (the
 * rebuild's last serial step): the ledger view folded from the bench's generated log
 * (LEDGER_BENCH_EVENTS, one million by default; about 108 MB of JSON), serialised afresh
 * each time and saved into a read-model file in bulk mode, in one row (what the promotion
 * wrote before) and in parts of WHOLE_PART_CHARS (what it writes now), alternated over
 * rounds. Only the save is timed; the serialising is printed beside it. One row makes the
 * binding and SQLite copy the whole text into fresh blocks of malloc's, whose first touch
 * costs what the VM makes it cost: compare with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`.
 *
 *   [GLIBC_TUNABLES=...] node dist/bench/src/profile/whole-checkpoint-write.js [rounds=4]
 */
import { loadavg } from 'node:os';
import { SqliteReadOnlyEventStore } from '@ledger/event-store';
import { CheckpointStore, ledgerProjection, openReadModelDatabase, StateFold } from '@ledger/projections';
import { median } from '../support/stats';
import { benchEvents, generatedLog } from '../support/generated-log';
import { tempDatabase } from '../support/temp-file';

const since = (started: number): number => performance.now() - started;

const main = async (): Promise<void> => {
  const rounds = Number(process.argv[2] ?? 4);
  const { eventFile } = await generatedLog(benchEvents(), (line) => console.error(line));
  const store = SqliteReadOnlyEventStore.open({ file: eventFile });
  const fold = new StateFold(ledgerProjection, ledgerProjection.initialState());
  for (let after = 0; ;) {
    const page = store.readAfter(after, 2_000);
    if (page.length === 0) break;
    fold.applyPage(page);
    after = page[page.length - 1].position;
  }
  await store.close();
  const temp = tempDatabase('whole-checkpoint-write');
  const db = openReadModelDatabase(temp.file, { mode: 'bulk' });
  const stores = { 'one row': CheckpointStore.on(db, { wholePartChars: Number.MAX_SAFE_INTEGER }), parts: CheckpointStore.on(db) };
  const saved: Record<keyof typeof stores, number[]> = { 'one row': [], parts: [] };
  const tunables = process.env.GLIBC_TUNABLES ? `GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES} ` : '';
  console.log(`\`${tunables}node dist/bench/src/profile/whole-checkpoint-write.js ${rounds}\`: load average ${loadavg()[0].toFixed(2)} at start`);
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const as of ['one row', 'parts'] as const) {
        let started = performance.now();
        const json = JSON.stringify(fold.state);
        const serialised = since(started);
        started = performance.now();
        stores[as].saveJson(ledgerProjection.name, fold.position, json, new Date());
        const took = since(started);
        saved[as].push(took);
        console.log(`round ${round}, ${as}: serialised in ${serialised.toFixed(0)} ms (${(json.length / 1e6).toFixed(0)} MB), saved in ${took.toFixed(0)} ms`);
      }
    }
  } finally {
    db.close();
    temp.done();
  }
  const line = (as: keyof typeof stores) => `${as}: save median ${median(saved[as]).toFixed(0)} ms (${saved[as].map((ms) => ms.toFixed(0)).join(', ')})`;
  console.log(`${line('one row')}; ${line('parts')}; load average ${loadavg()[0].toFixed(2)} at end`);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
