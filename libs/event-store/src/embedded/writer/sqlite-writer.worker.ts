/**
 * The embedded store's writer thread: it owns the write connection, so BEGIN IMMEDIATE,
 * the expected-revision checks, the INSERTs and COMMIT with its fsync all run here and
 * never stall the main thread's event loop. It commits one batch per message and answers
 * only after COMMIT returned, so the main thread acknowledges nothing that is not durable.
 */
import { writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteBatchWriter } from '../sqlite-batch-writer';
import { openSqliteConnection } from '../sqlite-connection';
import { resolveSqliteStoreOptions } from '../sqlite-store-options';
import { SqliteStreamAppender } from '../sqlite-stream-appender';
import { StoreFileIdentity } from '../store-file-identity';
import { type FromWriter, type ToWriter, type WriterSettings, toWireBatch, toWireError } from './writer-protocol';

const port = parentPort!;
const settings = workerData as WriterSettings;
const send = (message: FromWriter) => port.postMessage(message);

/** The crash tests' hook: announce on stderr, then block this thread for good with the transaction open. */
const pauseForever = (transaction: number): void => {
  writeSync(2, `${JSON.stringify({ msg: 'sqlite writer paused inside a commit', transaction })}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};

const start = (): void => {
  let db: ReturnType<typeof openSqliteConnection>;
  try {
    db = openSqliteConnection(resolveSqliteStoreOptions({ file: settings.file, synchronous: settings.synchronous, busyTimeoutMs: settings.busyTimeoutMs }));
  } catch (error) {
    send({ kind: 'open-failed', error: toWireError(error) });
    return;
  }
  // Checked here rather than on the main thread: a stat per commit is off the event loop.
  const identity = new StoreFileIdentity(settings.file);
  let transactions = 0;
  const writeBatch = sqliteBatchWriter(db, new SqliteStreamAppender(db), () => {
    if (transactions === settings.pauseInCommit) pauseForever(transactions);
  });
  port.on('message', (message: ToWriter) => {
    if (message.kind === 'close') {
      db.close();
      send({ kind: 'closed' });
      port.close();
      return;
    }
    transactions += 1;
    try {
      identity.assertUnchanged();
      send(toWireBatch(writeBatch(message.requests, message.clockTime)));
    } catch (error) {
      send({ kind: 'failed', error: toWireError(error) });
    }
  });
  send({ kind: 'ready' });
};

start();
