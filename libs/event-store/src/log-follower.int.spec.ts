import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { SqliteEventStore } from './embedded/sqlite-event-store';
import { tempStoreFile } from './embedded/testing/temp-store-file';
import { testEvents } from './embedded/testing/test-events';
import { LogFollower, type SubscriptionRestart } from './log-follower';
import { DroppingSubscriptionsStore } from './testing/dropping-subscriptions.store';

/**
 * Issue 12, point 3: the one resubscription mechanism, on the embedded store behind a
 * wrapper that drops every subscription after a random number of events (with an error or
 * a clean end). The follower must deliver every event exactly once, in order, and report
 * each restart. Waits are on conditions, never on durations.
 */
const files: Array<{ remove(): Promise<void> }> = [];
after(() => Promise.all(files.map((file) => file.remove())));

describe('LogFollower: resubscribes from the checkpoint whatever the store does', () => {
  for (const seed of [1, 7, 42]) {
    it(`delivers every event once, in order, through random drops (seed ${seed})`, async () => {
      const file = await tempStoreFile('follower');
      files.push(file);
      const inner = await SqliteEventStore.open({ file: file.file, synchronous: 'NORMAL', pollIntervalMs: 5 });
      const store = new DroppingSubscriptionsStore(inner, { seed, maxEvents: 6 });
      for (let i = 0; i < 10; i++) await inner.appendToStream(`s-${i % 3}`, testEvents(3), 'any');
      const seen: number[] = [];
      const restarts: SubscriptionRestart[] = [];
      let reachedAll!: () => void;
      const allSeen = new Promise<void>((resolve) => (reachedAll = resolve));
      let checkpoint = 0;
      const follower = new LogFollower(store, {
        subscriber: 'test',
        checkpoint: () => checkpoint,
        handle: (event) => {
          seen.push(event.position);
          checkpoint = event.position;
          if (seen.length === 60) reachedAll();
        },
        onRestart: (restart) => restarts.push(restart),
        initialDelayMs: 1,
        maxDelayMs: 5,
      });
      follower.start();
      // Half while following live: appended after the follower started.
      for (let i = 0; i < 10; i++) await inner.appendToStream(`s-${i % 3}`, testEvents(3), 'any');
      await allSeen;
      await follower.stop();
      const expected = (await inner.readAll({ maxCount: 100 })).map((event) => event.position);
      assert.deepEqual(seen, expected);
      assert.ok(restarts.length > 0 && restarts.length === follower.restarts);
      assert.ok(store.drops.errors + store.drops.ends >= restarts.length - 1);
      for (const restart of restarts) {
        assert.equal(restart.subscriber, 'test');
        assert.ok(restart.reason === 'error' || restart.reason === 'ended');
        assert.ok(restart.delayMs >= 1 && restart.delayMs <= 5);
      }
      await inner.close();
    });
  }

  it('backs off while no event gets through, and stop() ends a backoff at once', async () => {
    const file = await tempStoreFile('follower-backoff');
    files.push(file);
    const inner = await SqliteEventStore.open({ file: file.file, synchronous: 'NORMAL', pollIntervalMs: 5 });
    await inner.appendToStream('s', testEvents(1), 'any');
    const store = new DroppingSubscriptionsStore(inner, { seed: 3, maxEvents: 0 }); // every subscription dies at once
    const delays: number[] = [];
    let fourRestarts!: () => void;
    const restarted = new Promise<void>((resolve) => (fourRestarts = resolve));
    const follower = new LogFollower(store, {
      subscriber: 'stuck',
      checkpoint: () => 0,
      handle: () => undefined,
      onRestart: (restart) => {
        delays.push(restart.delayMs);
        if (delays.length === 4) fourRestarts();
      },
      initialDelayMs: 1,
      maxDelayMs: 60_000,
    });
    follower.start();
    await restarted;
    await follower.stop();
    assert.deepEqual(delays.slice(0, 4), [1, 2, 4, 8]);
    await inner.close();
  });

  it('counts a catch-up that moved the checkpoint and then failed as progress: no doubled wait', async () => {
    const file = await tempStoreFile('follower-catch-up');
    files.push(file);
    const store = await SqliteEventStore.open({ file: file.file, synchronous: 'NORMAL', pollIntervalMs: 5 });
    let checkpoint = 0;
    const restarts: SubscriptionRestart[] = [];
    let fourRestarts!: () => void;
    const restarted = new Promise<void>((resolve) => (fourRestarts = resolve));
    const follower = new LogFollower(store, {
      subscriber: 'catching-up',
      checkpoint: () => checkpoint,
      catchUp: async () => {
        checkpoint += 10; // folded a page...
        throw new Error('SQLITE_FULL: database or disk is full'); // ...then the next one failed
      },
      handle: () => undefined,
      onRestart: (restart) => {
        restarts.push(restart);
        if (restarts.length === 4) fourRestarts();
      },
      initialDelayMs: 1,
      maxDelayMs: 60_000,
    });
    follower.start();
    await restarted;
    await follower.stop();
    await store.close();
    assert.deepEqual(
      restarts.slice(0, 4).map((restart) => [restart.attempt, restart.delayMs]),
      [
        [1, 1],
        [1, 1],
        [1, 1],
        [1, 1],
      ],
    );
  });

  it('hands a burst to handlePage in pages: every event once, in order, fewer calls than events', async () => {
    const file = await tempStoreFile('follower-pages');
    files.push(file);
    const store = await SqliteEventStore.open({ file: file.file, synchronous: 'NORMAL', pollIntervalMs: 5 });
    const seen: number[] = [];
    const pages: number[] = [];
    let checkpoint = 0;
    let reachedAll!: () => void;
    const allSeen = new Promise<void>((resolve) => (reachedAll = resolve));
    const follower = new LogFollower(store, {
      subscriber: 'pages',
      checkpoint: () => checkpoint,
      handlePage: (events) => {
        pages.push(events.length);
        for (const event of events) seen.push(event.position);
        checkpoint = events[events.length - 1].position;
        if (seen.length === 200) reachedAll();
      },
    });
    // Appended before the follower starts: read back in pages of up to 256.
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.appendToStream(`s-${i}`, testEvents(1), 'no_stream')));
    follower.start();
    // And a live burst of concurrent appends (group commit puts many in one transaction).
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.appendToStream(`t-${i}`, testEvents(1), 'no_stream')));
    await allSeen;
    await follower.stop();
    const expected = (await store.readAll({ maxCount: 1000 })).map((event) => event.position);
    assert.deepEqual(seen, expected);
    assert.ok(pages.length < 200, `200 events in ${pages.length} pages`);
    assert.ok(pages.every((size) => size >= 1));
    await store.close();
  });

  it('with minPageIntervalMs, folds the commits made during its pause as one page; hurry() and stop() end a pause at once', { timeout: 60_000 }, async () => {
    const file = await tempStoreFile('follower-pace');
    files.push(file);
    const store = await SqliteEventStore.open({ file: file.file, synchronous: 'NORMAL', pollIntervalMs: 5 });
    const pages: number[][] = [];
    let checkpoint = 0;
    let onPage: () => void = () => undefined;
    const nextPage = () => new Promise<void>((resolve) => (onPage = resolve));
    // A pause far longer than any test: only hurry() and stop() can end it.
    const follower = new LogFollower(store, {
      subscriber: 'paced',
      checkpoint: () => checkpoint,
      minPageIntervalMs: 3_600_000,
      handlePage: (events) => {
        pages.push(events.map((event) => event.position));
        checkpoint = events[events.length - 1].position;
        onPage();
      },
    });
    follower.start();
    let page = nextPage();
    await store.appendToStream('one', testEvents(1), 'no_stream');
    await page;
    // Twenty commits, one after another, while the follower pauses: one page after hurry().
    for (let i = 0; i < 20; i++) await store.appendToStream(`s-${i}`, testEvents(1), 'no_stream');
    page = nextPage();
    follower.hurry();
    await page;
    assert.deepEqual(
      pages.flat(),
      (await store.readAll({ maxCount: 100 })).map((event) => event.position),
    );
    assert.deepEqual(
      pages.map((positions) => positions.length),
      [1, 20],
    );
    // Paused for an hour again: stop() does not wait for it (the test would time out).
    await follower.stop();
    await store.close();
  });

  it('with minPageIntervalMs, does not pause while someone waits for the next events', { timeout: 60_000 }, async () => {
    const file = await tempStoreFile('follower-pace-waits');
    files.push(file);
    const store = await SqliteEventStore.open({ file: file.file, synchronous: 'NORMAL', pollIntervalMs: 5 });
    let checkpoint = 0;
    let onPage: () => void = () => undefined;
    const follower = new LogFollower(store, {
      subscriber: 'paced-but-awaited',
      checkpoint: () => checkpoint,
      minPageIntervalMs: 3_600_000,
      someoneWaits: () => true,
      handlePage: (events) => {
        checkpoint = events[events.length - 1].position;
        onPage();
      },
    });
    follower.start();
    for (let i = 0; i < 3; i++) {
      const page = new Promise<void>((resolve) => (onPage = resolve));
      const { position } = await store.appendToStream(`w-${i}`, testEvents(1), 'no_stream');
      await page;
      assert.equal(checkpoint, position);
    }
    await follower.stop();
    await store.close();
  });
});
