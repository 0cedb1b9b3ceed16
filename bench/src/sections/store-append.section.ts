import { SqliteEventStore } from '@ledger/event-store';
import type { BenchSection, Measurement } from '../support/bench-section';
import { RawInserter, rateOf } from '../support/raw-sqlite';
import { tempDatabase } from '../support/temp-file';
import { typicalEvent } from '../support/typical-event';

const ROUNDS = 3;
const SLICE_MS = 1_000;

/**
 * `clients` loops through the real adapter (group commit, a savepoint per append, one
 * fsync per transaction), each appending one typical event at a time to its own stream
 * with its expected revision.
 */
export class AppendLoad {
  private readonly revisions: number[];

  private constructor(
    private readonly store: SqliteEventStore,
    private readonly temp: { done(): void },
    clients: number,
  ) {
    this.revisions = new Array<number>(clients).fill(-1);
  }

  static async open(clients: number): Promise<AppendLoad> {
    const temp = tempDatabase(`append-${clients}`);
    return new AppendLoad(await SqliteEventStore.open({ file: temp.file, synchronous: 'FULL' }), temp, clients);
  }

  async measure(ms: number): Promise<{ events: number; seconds: number; transactions: number }> {
    const before = this.store.stats();
    const started = process.hrtime.bigint();
    const deadline = performance.now() + ms;
    const counts = await Promise.all(
      this.revisions.map(async (_, client) => {
        let appended = 0;
        while (performance.now() < deadline) {
          const revision = this.revisions[client];
          await this.store.appendToStream(`node-bench-${client}`, [typicalEvent()], revision < 0 ? 'no_stream' : revision);
          this.revisions[client] = revision + 1;
          appended++;
        }
        return appended;
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { events: counts.reduce((sum, count) => sum + count, 0), seconds, transactions: this.store.stats().transactions - before.transactions };
  }

  async close(): Promise<void> {
    await this.store.close();
    this.temp.done();
  }
}

export const storeAppendSection: BenchSection = {
  name: 'store-append',
  description: `the ledger's append throughput through SqliteEventStore (the real adapter, synchronous=FULL): 1 client in sequence and 64 concurrent clients (group commit), each against raw single-event transactions measured in the same run, interleaved (${ROUNDS} rounds of ${SLICE_MS / 1000} s slices: raw, 1 client, 64 clients) so that the disk's drift hits all three alike`,
  targets: [{ key: 'append.64-clients.ratio', atLeast: 2, why: '64 concurrent clients reach twice the raw single-event-transaction rate' }],
  async run(): Promise<Measurement[]> {
    const raw = new RawInserter(1);
    const single = await AppendLoad.open(1);
    const grouped = await AppendLoad.open(64);
    try {
      const slices = {
        raw: [] as { events: number; seconds: number }[],
        single: [] as { events: number; seconds: number }[],
        grouped: [] as { events: number; seconds: number; transactions: number }[],
      };
      for (let round = 0; round < ROUNDS; round++) {
        slices.raw.push(raw.measure(SLICE_MS));
        slices.single.push(await single.measure(SLICE_MS));
        slices.grouped.push(await grouped.measure(SLICE_MS));
      }
      const rawRate = rateOf(slices.raw);
      const singleRate = rateOf(slices.single);
      const groupedRate = rateOf(slices.grouped);
      const groupedEvents = slices.grouped.reduce((sum, slice) => sum + slice.events, 0);
      const groupedTransactions = slices.grouped.reduce((sum, slice) => sum + slice.transactions, 0);
      return [
        { key: 'append.raw-single', label: 'raw single-event transactions (reference for the ratios)', value: rawRate, unit: 'events/s' },
        { key: 'append.1-client', label: 'SqliteEventStore, 1 client', value: singleRate, unit: 'events/s' },
        { key: 'append.1-client.ratio', label: 'SqliteEventStore, 1 client / raw single', value: singleRate / rawRate, unit: 'x' },
        { key: 'append.64-clients', label: 'SqliteEventStore, 64 concurrent clients', value: groupedRate, unit: 'events/s' },
        { key: 'append.64-clients.ratio', label: 'SqliteEventStore, 64 clients / raw single', value: groupedRate / rawRate, unit: 'x' },
        {
          key: 'append.64-clients.batch',
          label: 'SqliteEventStore, 64 clients: appends per transaction',
          value: groupedEvents / groupedTransactions,
          unit: 'appends',
        },
      ];
    } finally {
      raw.close();
      await single.close();
      await grouped.close();
    }
  },
};
