import type { BenchSection } from '../support/bench-section';
import { RawInserter, rateOf } from '../support/raw-sqlite';
import { TYPICAL_EVENT_BYTES } from '../support/typical-event';

const ROUNDS = 3;
const SLICE_MS = 1_000;

export const rawSqliteSection: BenchSection = {
  name: 'raw-sqlite',
  description: `the limit of this SQLite build on this disk: plain INSERTs of the typical event (${TYPICAL_EVENT_BYTES} bytes of JSON) into the store's table, WAL, synchronous=FULL (one fsync per commit); ${ROUNDS} interleaved ${SLICE_MS / 1000} s slices of each`,
  async run() {
    const single = new RawInserter(1);
    const batched = new RawInserter(100);
    try {
      const slices = { single: [] as { events: number; seconds: number }[], batched: [] as { events: number; seconds: number }[] };
      for (let round = 0; round < ROUNDS; round++) {
        slices.single.push(single.measure(SLICE_MS));
        slices.batched.push(batched.measure(SLICE_MS));
      }
      return [
        { key: 'raw.single', label: 'raw SQLite, 1 event per transaction', value: rateOf(slices.single), unit: 'events/s' },
        { key: 'raw.batch-100', label: 'raw SQLite, 100 events per transaction', value: rateOf(slices.batched), unit: 'events/s' },
      ];
    } finally {
      single.close();
      batched.close();
    }
  },
};
