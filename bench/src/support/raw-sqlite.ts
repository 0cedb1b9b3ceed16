import type { Database } from 'better-sqlite3';
import { openSqliteConnection } from '../../../libs/event-store/src/embedded/sqlite-connection';
import { resolveSqliteStoreOptions } from '../../../libs/event-store/src/embedded/sqlite-store-options';
import { tempDatabase } from './temp-file';
import { newEventId, TYPICAL_DATA_JSON, TYPICAL_METADATA_JSON } from './typical-event';

/**
 * The raw limit: plain INSERTs of the typical event's bytes into the store's own table
 * (same schema and indexes, opened with the same pragmas: WAL, synchronous=FULL, same
 * id generator), with nothing else: no revision check, no stream table, no savepoint,
 * no promise, no event loop.
 */
export class RawInserter {
  private readonly temp: { file: string; done(): void };
  private readonly db: Database;
  private readonly revisions = new Array<number>(64).fill(-1);
  private written = 0;
  private readonly transaction: () => void;

  constructor(private readonly eventsPerTransaction: number) {
    this.temp = tempDatabase(`raw-${eventsPerTransaction}`);
    this.db = openSqliteConnection(resolveSqliteStoreOptions({ file: this.temp.file, synchronous: 'FULL' }));
    const insert = this.db.prepare('INSERT INTO events (event_id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const run = this.db.transaction(() => {
      for (let index = 0; index < this.eventsPerTransaction; index++) {
        const stream = this.written % 64;
        this.revisions[stream] += 1;
        insert.run(
          newEventId(),
          `node-raw-${stream}`,
          this.revisions[stream],
          'NodeAcquired',
          TYPICAL_DATA_JSON,
          TYPICAL_METADATA_JSON,
          new Date().toISOString(),
        );
        this.written++;
      }
    });
    this.transaction = () => run.immediate();
  }

  /** Inserts for `ms`; the events written and the seconds it took. */
  measure(ms: number): { events: number; seconds: number } {
    const before = this.written;
    const started = process.hrtime.bigint();
    const deadline = performance.now() + ms;
    while (performance.now() < deadline) this.transaction();
    return { events: this.written - before, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  }

  close(): void {
    this.db.close();
    this.temp.done();
  }
}

/** Events per second over a few slices (the disk's speed drifts; slices let callers interleave). */
export const rateOf = (slices: readonly { events: number; seconds: number }[]): number =>
  slices.reduce((sum, slice) => sum + slice.events, 0) / slices.reduce((sum, slice) => sum + slice.seconds, 0);
