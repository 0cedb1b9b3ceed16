import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '../envelope';
import { AppendNotifier } from './append-notifier';
import { SqliteAllSubscription } from './sqlite-subscription';

/** An in-memory log standing in for the events table, counting reads. */
const fakeLog = (size: number, pollIntervalMs = 60_000) => {
  const events: RecordedEvent[] = [];
  const append = (): void => {
    const position = events.length * 2 + 1;
    events.push({
      id: `event-${position}`,
      type: 'T',
      stream: 's',
      revision: events.length,
      position,
      recordedAt: new Date(0).toISOString(),
      data: {},
      metadata: { correlationId: 'c', causationId: null, actor: 'a', requestId: null, schemaVersion: 1 },
    });
  };
  for (let index = 0; index < size; index++) append();
  const reads: number[] = [];
  const notifier = new AppendNotifier();
  const source = {
    readAfter: (after: number, maxCount: number) => {
      reads.push(after);
      return events.filter((event) => event.position > after).slice(0, maxCount);
    },
    notifier,
    pollIntervalMs,
  };
  return { events, append, reads, notifier, source };
};

describe('SqliteAllSubscription', () => {
  it('reads one page at a time, only when the consumer has taken the previous one', async () => {
    const log = fakeLog(600);
    const subscription = new SqliteAllSubscription(log.source, 0);
    const iterator = subscription[Symbol.asyncIterator]();
    await iterator.next();
    assert.equal(log.reads.length, 1, 'one page read for the first event');
    for (let index = 1; index < 256; index++) await iterator.next();
    assert.equal(log.reads.length, 1, 'no read while the page lasts');
    await iterator.next();
    assert.equal(log.reads.length, 2);
    await subscription.close();
  });

  it('delivers every event once in order, then live ones when notified', async () => {
    const log = fakeLog(300);
    const subscription = new SqliteAllSubscription(log.source, 0);
    const positions: number[] = [];
    const loop = (async () => {
      for await (const event of subscription) positions.push(event.position);
    })();
    while (positions.length < 300) await new Promise((resolve) => setImmediate(resolve));
    log.append();
    log.append();
    log.notifier.notify();
    while (positions.length < 302) await new Promise((resolve) => setImmediate(resolve));
    await subscription.close();
    await loop;
    assert.deepEqual(
      positions,
      log.events.map((event) => event.position),
    );
  });

  it('finds appends it was not told about by polling', async () => {
    const log = fakeLog(0, 10);
    const subscription = new SqliteAllSubscription(log.source, 0);
    const next = subscription[Symbol.asyncIterator]().next();
    log.append();
    const result = await next;
    assert.equal(result.done, false);
    await subscription.close();
  });

  it('serializes concurrent next() calls', async () => {
    const log = fakeLog(5);
    const subscription = new SqliteAllSubscription(log.source, 0);
    const iterator = subscription[Symbol.asyncIterator]();
    const results = await Promise.all([iterator.next(), iterator.next(), iterator.next()]);
    assert.deepEqual(
      results.map((result) => result.value?.position),
      [1, 3, 5],
    );
    await subscription.close();
  });

  it('resolves a pending next() as done when closed, and stays done', async () => {
    const log = fakeLog(0);
    const subscription = new SqliteAllSubscription(log.source, 0);
    const iterator = subscription[Symbol.asyncIterator]();
    const pending = iterator.next();
    await subscription.close();
    assert.deepEqual(await pending, { done: true, value: undefined });
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
  });

  it('takeReady hands out the rest of the page at once, and the iteration goes on after it', async () => {
    const log = fakeLog(10);
    const subscription = new SqliteAllSubscription(log.source, 0);
    const iterator = subscription[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).value?.position, 1);
    assert.deepEqual(
      subscription.takeReady().map((event) => event.position),
      log.events.slice(1).map((event) => event.position),
    );
    assert.deepEqual(subscription.takeReady(), [], 'nothing more is ready without a read');
    log.append();
    log.notifier.notify();
    assert.equal((await iterator.next()).value?.position, log.events[10].position, 'continues after what takeReady handed out');
    await subscription.close();
  });

  it('after a short page, reads again only once a commit is notified (or the poll passes)', async () => {
    const log = fakeLog(3);
    const subscription = new SqliteAllSubscription(log.source, 0);
    const iterator = subscription[Symbol.asyncIterator]();
    for (let index = 0; index < 3; index++) await iterator.next();
    const next = iterator.next();
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(log.reads.length, 1, 'the short page was the whole log: no read until something is committed');
    log.append();
    log.notifier.notify();
    assert.equal((await next).value?.position, log.events[3].position);
    assert.equal(log.reads.length, 2);
    await subscription.close();
  });
});
