/**
 * The yardstick of the rebuild figures: a plain better-sqlite3 SELECT over the events table,
 * parsing each event's data and metadata. Run as a script, it reads the file named by its
 * argument in a fresh process and prints `{"events":N,"seconds":S}`: the conditions
 * `ledger-cli rebuild` runs in (its own process), not those of a bench process whose heap
 * already holds the folds of earlier measurements.
 *
 *   node dist/bench/src/support/raw-read-and-parse.js <events.sqlite>
 */
import { execFile } from 'node:child_process';
import Database from 'better-sqlite3';

export interface RawRead {
  events: number;
  seconds: number;
}

export const rawReadAndParse = (file: string): RawRead => {
  const db = new Database(file, { readonly: true });
  const started = process.hrtime.bigint();
  let events = 0;
  let check = 0;
  for (const row of db
    .prepare('SELECT position, event_id, stream, revision, type, data, metadata, recorded_at FROM events ORDER BY position')
    .iterate() as IterableIterator<{ data: string; metadata: string }>) {
    const data = JSON.parse(row.data) as { nodeId?: string };
    const metadata = JSON.parse(row.metadata) as { actor?: string };
    if (data.nodeId !== undefined && metadata.actor !== undefined) check++;
    events++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  if (check === 0) throw new Error('nothing parsed');
  return { events, seconds };
};

/** rawReadAndParse in a process of its own. */
export const rawReadAndParseInChild = (file: string): Promise<RawRead> =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, [__filename, file], { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`the raw read failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout) as RawRead);
    });
  });

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: raw-read-and-parse.js <events.sqlite>');
    process.exit(2);
  }
  console.log(JSON.stringify(rawReadAndParse(file)));
}
