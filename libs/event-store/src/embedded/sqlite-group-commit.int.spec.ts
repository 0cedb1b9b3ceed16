import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isConcurrencyError } from '../concurrency-error';
import { SqliteEventStore } from './sqlite-event-store';
import { type TempStoreFile, tempStoreFile } from './testing/temp-store-file';
import { testEvent, testEvents } from './testing/test-events';

const transactionsDuring = async (store: SqliteEventStore, work: () => Promise<unknown>): Promise<number> => {
  const before = store.stats().transactions;
  await work();
  return store.stats().transactions - before;
};

describe('embedded store group commit', () => {
  let temp: TempStoreFile;
  let store: SqliteEventStore;
  before(async () => {
    temp = await tempStoreFile('group-commit');
    store = await SqliteEventStore.open({ file: temp.file });
  });
  after(async () => {
    await store.close();
    await temp.remove();
  });

  it('commits 64 concurrent appends to 64 streams in far fewer than 64 transactions', async () => {
    const streams = Array.from({ length: 64 }, (_, index) => `node-gc-${index}`);
    let results: unknown[] = [];
    const transactions = await transactionsDuring(store, async () => {
      results = await Promise.all(streams.map((stream) => store.appendToStream(stream, testEvents(2), 'no_stream')));
    });
    assert.equal(results.length, 64);
    assert.ok(transactions <= 4, `64 appends took ${transactions} transactions`);
    for (const stream of streams) assert.equal((await store.readStream(stream)).length, 2);
  });

  it("reports each transaction to commit observers: its size and every append's latency", async () => {
    const commits: { appends: number; appendSeconds: number[] }[] = [];
    const stop = store.observeCommits((commit) => commits.push(commit));
    const stopBroken = store.observeCommits(() => {
      throw new Error('a broken observer fails no append');
    });
    await Promise.all(Array.from({ length: 10 }, (_, index) => store.appendToStream(`node-gc-observed-${index}`, [testEvent()], 'no_stream')));
    stop();
    stopBroken();
    await store.appendToStream('node-gc-unobserved', [testEvent()], 'no_stream');
    assert.equal(
      commits.reduce((sum, commit) => sum + commit.appends, 0),
      10,
    );
    for (const commit of commits) {
      assert.equal(commit.appendSeconds.length, commit.appends);
      assert.ok(commit.appendSeconds.every((seconds) => seconds >= 0 && Number.isFinite(seconds)));
    }
  });

  it('rolls back only the refused append of a batch; the others commit', async () => {
    await store.appendToStream('node-gc-conflicted', [testEvent()], 'no_stream');
    const transactions = await transactionsDuring(store, async () => {
      const outcomes = await Promise.allSettled([
        store.appendToStream('node-gc-ok-1', testEvents(2), 'no_stream'),
        store.appendToStream('node-gc-conflicted', testEvents(3), 'no_stream'),
        store.appendToStream('node-gc-ok-2', testEvents(1), 'no_stream'),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.ok(isConcurrencyError((outcomes[1] as PromiseRejectedResult).reason));
    });
    assert.equal(transactions, 1, 'the three appends shared one transaction');
    assert.equal((await store.readStream('node-gc-ok-1')).length, 2);
    assert.equal((await store.readStream('node-gc-conflicted')).length, 1);
    assert.equal((await store.readStream('node-gc-ok-2')).length, 1);
  });

  it('lets a later append in a batch see an earlier one on the same stream', async () => {
    const first = testEvent();
    const second = testEvent();
    const outcomes = await Promise.allSettled([
      store.appendToStream('node-gc-same', [first], 'no_stream'),
      store.appendToStream('node-gc-same', [second], 0),
      store.appendToStream('node-gc-same', [testEvent()], 0),
      store.appendToStream('node-gc-same', [testEvent()], 'no_stream'),
    ]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'fulfilled', 'rejected', 'rejected'],
    );
    const stream = await store.readStream('node-gc-same');
    assert.deepEqual(
      stream.map((event) => event.id),
      [first.id, second.id],
    );
  });

  it('rolls back a refused retry (ids stored elsewhere) alone, and a retry in the same batch is a no-op', async () => {
    const stored = testEvents(2);
    const original = await store.appendToStream('node-gc-retry', stored, 'no_stream');
    const outcomes = await Promise.allSettled([
      store.appendToStream('node-gc-retry', stored, 'no_stream'),
      store.appendToStream('node-gc-other', [stored[0]], 'no_stream'),
      store.appendToStream('node-gc-other', [testEvent()], 'no_stream'),
    ]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual((outcomes[0] as PromiseFulfilledResult<unknown>).value, original);
    assert.equal((await store.readStream('node-gc-retry')).length, 2);
    assert.equal((await store.readStream('node-gc-other')).length, 1);
  });

  it('never puts more than maxBatch appends in one transaction', async () => {
    const small = await SqliteEventStore.open({ file: temp.file, maxBatch: 8 });
    try {
      const transactions = await transactionsDuring(small, () =>
        Promise.all(Array.from({ length: 64 }, (_, index) => small.appendToStream(`node-gc-small-${index}`, [testEvent()], 'any'))),
      );
      assert.equal(transactions, 8);
      assert.deepEqual(small.stats(), { transactions: 8, appends: 64 });
    } finally {
      await small.close();
    }
  });

  it('settles appends already submitted before close() closes the file', async () => {
    const closing = await SqliteEventStore.open({ file: temp.file });
    const pending = Array.from({ length: 5 }, (_, index) => closing.appendToStream(`node-gc-closing-${index}`, [testEvent()], 'no_stream'));
    await closing.close();
    const results = await Promise.all(pending);
    assert.equal(results.length, 5);
    await assert.rejects(closing.appendToStream('node-gc-closing-late', [testEvent()], 'no_stream'), /is closed/);
    assert.equal((await store.readStream('node-gc-closing-4')).length, 1);
  });
});
