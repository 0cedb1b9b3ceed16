/**
 * Child process for the two-process race: opens the store, says "ready", waits for
 * "go" on stdin, then fires `attempts` concurrent appends to `stream`, each expecting
 * revision 0, and prints how many were accepted and how many got a ConcurrencyError.
 * Usage: node race-appender.fixture.js <file> <stream> <attempts>
 */
import { isConcurrencyError } from '../../concurrency-error';
import { SqliteEventStore } from '../sqlite-event-store';
import { testEvents } from './test-events';

const main = async (): Promise<void> => {
  const [file, stream, attempts] = process.argv.slice(2);
  const store = await SqliteEventStore.open({ file });
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const outcomes = await Promise.allSettled(Array.from({ length: Number(attempts) }, () => store.appendToStream(stream, testEvents(2), 0)));
  const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
  const conflicts = outcomes.filter((outcome) => outcome.status === 'rejected' && isConcurrencyError(outcome.reason)).length;
  await store.close();
  process.stdout.write(`${JSON.stringify({ accepted, conflicts })}\n`);
  process.stdin.destroy();
};

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
