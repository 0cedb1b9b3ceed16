import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AllStreamResolvedEvent, Position } from '@eventstore/db-client';
import type { RecordedEvent } from '../envelope';
import type { ClientAllSubscription } from './all-subscription';
import { EventStoreDbAllSubscription } from './all-subscription';

/**
 * The subscription wrapper's own logic (exclusive start, system events, closing) against a
 * hand-fed source: an async queue standing in for the client's subscription object. It says
 * nothing about the server; the contract run does.
 */
class FedSource implements ClientAllSubscription {
  unsubscribed = 0;
  /** The consumer has taken everything pushed and waits for more. */
  waiting = false;
  private readonly queue: Array<AllStreamResolvedEvent | Error> = [];
  private wake: (() => void) | undefined;

  push(...items: Array<AllStreamResolvedEvent | Error>): void {
    this.queue.push(...items);
    this.wake?.();
  }

  async unsubscribe(): Promise<void> {
    this.unsubscribed += 1;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<AllStreamResolvedEvent> {
    for (;;) {
      const item = this.queue.shift();
      if (item === undefined) {
        this.waiting = true;
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.waiting = false;
        continue;
      }
      if (item instanceof Error) throw item;
      yield item;
    }
  }
}

const at = (offset: number): Position => ({ commit: BigInt(offset), prepare: BigInt(offset) });

const resolved = (offset: number, stream = 'node-n1', type = 'NodeAcquired'): AllStreamResolvedEvent =>
  ({
    event: {
      streamId: stream,
      id: `00000000-0000-4000-8000-${String(offset).padStart(12, '0')}`,
      isJson: true,
      revision: 0n,
      type,
      created: new Date(0),
      data: {},
      metadata: { correlationId: 'c', causationId: null, actor: 'a', requestId: null, schemaVersion: 1 },
      position: at(offset),
    },
  }) as AllStreamResolvedEvent;

async function take(subscription: EventStoreDbAllSubscription, count: number): Promise<RecordedEvent[]> {
  const taken: RecordedEvent[] = [];
  for await (const event of subscription) {
    taken.push(event);
    if (taken.length === count) break;
  }
  return taken;
}

describe('EventStoreDB $all subscription wrapper', () => {
  it('starts strictly after the given position and skips system events', async () => {
    const source = new FedSource();
    source.push(resolved(100), resolved(200), resolved(250, '$stats-x', '$statsCollected'), resolved(300), resolved(400));
    const events = await take(new EventStoreDbAllSubscription(source, at(200)), 2);
    assert.deepEqual(
      events.map((event) => event.position),
      [300, 400],
    );
  });

  it('delivers from the start when there is no lower bound, never twice', async () => {
    const source = new FedSource();
    source.push(resolved(100), resolved(100), resolved(90), resolved(200));
    const events = await take(new EventStoreDbAllSubscription(source, undefined), 2);
    assert.deepEqual(
      events.map((event) => event.position),
      [100, 200],
    );
  });

  it('close() ends a for-await that is waiting for the next event, and unsubscribes once', async () => {
    const source = new FedSource();
    source.push(resolved(100));
    const subscription = new EventStoreDbAllSubscription(source, undefined);
    const seen: number[] = [];
    const loop = (async () => {
      for await (const event of subscription) seen.push(event.position);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await subscription.close();
    await loop;
    await subscription.close();
    assert.deepEqual(seen, [100]);
    assert.equal(source.unsubscribed, 1);
  });

  it('close() ends a for-await that skipped an event just before it started waiting', async () => {
    const source = new FedSource();
    source.push(resolved(100, '$stats-x', '$statsCollected'));
    const subscription = new EventStoreDbAllSubscription(source, undefined);
    let ended = false;
    const loop = (async () => {
      for await (const event of subscription) void event;
      ended = true;
    })();
    while (!source.waiting) await new Promise((resolve) => setImmediate(resolve));
    await subscription.close();
    // The source never ends on its own (a client may not end its stream on unsubscribe): only close() can end the loop.
    const outcome = await Promise.race([loop.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 30_000, 'still waiting'))]);
    assert.equal(outcome, 'ended');
    assert.ok(ended);
  });

  it('breaking out of the loop closes the subscription', async () => {
    const source = new FedSource();
    const closed: EventStoreDbAllSubscription[] = [];
    const subscription = new EventStoreDbAllSubscription(source, undefined, (s) => closed.push(s));
    source.push(resolved(100), resolved(200));
    await take(subscription, 1);
    assert.equal(source.unsubscribed, 1);
    assert.deepEqual(closed, [subscription]);
  });

  it('reports an error from the client while open, not after close()', async () => {
    const failing = new FedSource();
    failing.push(resolved(100), new Error('connection lost'));
    await assert.rejects(take(new EventStoreDbAllSubscription(failing, undefined), 5), /connection lost/);
    assert.equal(failing.unsubscribed, 1);

    const cancelled = new FedSource();
    const subscription = new EventStoreDbAllSubscription(cancelled, undefined);
    const loop = (async () => {
      for await (const event of subscription) void event;
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await subscription.close();
    cancelled.push(new Error('cancelled on client'));
    await loop;
    await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it('can be iterated once', async () => {
    const source = new FedSource();
    const subscription = new EventStoreDbAllSubscription(source, undefined);
    source.push(resolved(100));
    await take(subscription, 1);
    await assert.rejects(take(subscription, 1), /already being iterated/);
  });
});
