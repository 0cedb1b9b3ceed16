/**
 * Child process for the crash test: appends to a few streams forever, in concurrent
 * rounds (so group commit batches them), and writes one line per acknowledged append
 * to stdout with a synchronous write, so the parent hears only of acknowledged appends.
 * Usage: node crash-appender.fixture.js <file> <synchronous>
 */
import { writeSync } from 'node:fs';
import { SqliteEventStore } from '../sqlite-event-store';
import type { SqliteSynchronous } from '../sqlite-store-options';
import { testEvent } from './test-events';

const STREAMS = 8;

const main = async (): Promise<void> => {
  const [file, synchronous] = process.argv.slice(2);
  const store = await SqliteEventStore.open({ file, synchronous: synchronous as SqliteSynchronous });
  for (let round = 0; ; round++) {
    await Promise.all(
      Array.from({ length: STREAMS }, async (_, index) => {
        const event = testEvent({ round, index });
        const result = await store.appendToStream(`crash-${index}`, [event], 'any');
        writeSync(1, `${JSON.stringify({ id: event.id, position: result.position })}\n`);
      }),
    );
  }
};

main().catch((error: unknown) => {
  writeSync(2, `${String(error)}\n`);
  process.exit(1);
});
