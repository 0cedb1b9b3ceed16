import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SqliteEventStore } from '../embedded/sqlite-event-store';
import type { NewEvent, RecordedEvent } from '../envelope';
import { DelegatingStore } from '../testing/delegating.store';
import { type CommandHandlingOptions, DeciderRunner, type StreamDecider } from './decider-runner';

/** A counter stream: Incremented carries the value it counts to, Reset goes back to 0. */
type CounterEvent = { type: 'Incremented'; data: { value: number } } | { type: 'Reset'; data: Record<string, never> };
type CounterCommand = { type: 'increment'; max: number } | { type: 'reset' };

const counter: StreamDecider<CounterCommand, CounterEvent, number, number> = {
  initialState: () => 0,
  evolve: (count, event) => (event.type === 'Incremented' ? event.data.value : 0),
  decide: (command, count) => {
    if (command.type === 'reset') return { outcome: 'accepted', events: [{ type: 'Reset', data: {} }], reply: 0 };
    if (count >= command.max) return { outcome: 'refused', refusal: { code: 'at_max', message: `already at ${count}` } };
    return { outcome: 'accepted', events: [{ type: 'Incremented', data: { value: count + 1 } }], reply: count + 1 };
  },
};

/** One attempt only: a stale cache must not spend it (it is no rival's conflict). */
const options: CommandHandlingOptions<CounterEvent> = {
  toNewEvents: (events) =>
    events.map((event): NewEvent => ({
      id: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: { correlationId: 'c', causationId: null, actor: 'test', requestId: null, schemaVersion: 1 },
    })),
  retryPolicy: { maxAttempts: 1, backoffMs: () => 0 },
};

class CountingReads extends DelegatingStore {
  reads = 0;
  override readStream(stream: string, readOptions?: { fromRevision?: number }): Promise<RecordedEvent[]> {
    this.reads += 1;
    return super.readStream(stream, readOptions);
  }
}

const withStore = async (run: (store: CountingReads) => Promise<void>): Promise<void> => {
  const inner = await SqliteEventStore.open({ file: ':memory:' });
  try {
    await run(new CountingReads(inner));
  } finally {
    await inner.close();
  }
};

const values = async (store: CountingReads): Promise<number[]> =>
  (await store.readStream('counter-1')).map((event) => (event.type === 'Incremented' ? (event.data as { value: number }).value : 0));

describe('decider runner: deciding on the cached state', () => {
  it('appends decided on the cached state without reading the stream again', async () => {
    await withStore(async (store) => {
      const runner = new DeciderRunner(store, counter);
      for (let i = 0; i < 5; i++) await runner.handle('counter-1', { type: 'increment', max: 100 }, options);
      assert.equal(store.reads, 1, 'only the first command read the stream');
      assert.deepEqual(await values(store), [1, 2, 3, 4, 5]);
    });
  });

  it('never appends over what another writer stored since: the stale decision fails its expected revision and is made again, without spending a retry', async () => {
    await withStore(async (store) => {
      const mine = new DeciderRunner(store, counter);
      const elsewhere = new DeciderRunner(store, counter);
      await mine.handle('counter-1', { type: 'increment', max: 100 }, options);
      await elsewhere.handle('counter-1', { type: 'increment', max: 100 }, options);
      const handled = await mine.handle('counter-1', { type: 'increment', max: 100 }, options);
      assert.deepEqual(handled.outcome === 'accepted' && handled.reply, 3);
      assert.deepEqual(await values(store), [1, 2, 3]);
    });
  });

  it('answers a load from the cache only when the cached state already settles the question asked', async () => {
    await withStore(async (store) => {
      const mine = new DeciderRunner(store, counter);
      await mine.handle('counter-1', { type: 'increment', max: 100 }, options);
      await new DeciderRunner(store, counter).handle('counter-1', { type: 'increment', max: 100 }, options);
      const before = store.reads;
      const reachedOne = (count: number) => count >= 1;
      assert.equal((await mine.load('counter-1', reachedOne)).state, 1, 'the cache shows 1, which settles "at least 1"');
      assert.equal(store.reads, before, 'and nothing was read');
      assert.equal((await mine.load('counter-1', (count) => count >= 2)).state, 2, 'the cache does not settle "at least 2": the stream does');
      assert.equal(store.reads, before + 1);
      assert.equal((await new DeciderRunner(store, counter).load('counter-1', reachedOne)).state, 2, 'nothing cached: read');
    });
  });

  it('checks a refusal made on the cached state against the stream as stored', async () => {
    await withStore(async (store) => {
      const mine = new DeciderRunner(store, counter);
      await mine.handle('counter-1', { type: 'increment', max: 1 }, options);
      await new DeciderRunner(store, counter).handle('counter-1', { type: 'reset' }, options);
      const handled = await mine.handle('counter-1', { type: 'increment', max: 1 }, options);
      assert.equal(handled.outcome, 'accepted', 'the cache says 1 (at max) but the stream says 0');
      assert.deepEqual(await values(store), [1, 0, 1]);
    });
  });

  it('counts without a gap or a repeat however two runners with their own caches interleave (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }), async (whoRuns) => {
        await withStore(async (store) => {
          const runners = [new DeciderRunner(store, counter), new DeciderRunner(store, counter)];
          for (const first of whoRuns) {
            const handled = await runners[first ? 0 : 1].handle('counter-1', { type: 'increment', max: 1_000 }, options);
            assert.equal(handled.outcome, 'accepted');
          }
          assert.deepEqual(
            await values(store),
            whoRuns.map((_, index) => index + 1),
          );
        });
      }),
      { numRuns: 50 },
    );
  });
});
