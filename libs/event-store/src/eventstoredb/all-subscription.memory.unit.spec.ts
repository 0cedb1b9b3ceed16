import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AllStreamResolvedEvent } from '@eventstore/db-client';
import { EventStoreDbAllSubscription, type ClientAllSubscription } from './all-subscription';

/**
 * Issue 12, point 1: the projectors and the lease cascade hold one $all subscription for the
 * life of the process, so the wrapper must not keep anything per event. It used to race every
 * `next()` against one long-lived close promise; each race left a reaction on that promise
 * holding the event until close (about 840 MB for 100k events of 8 KB on Node 20).
 * The check compares the heap retained after a forced full GC, with a generous bound: the
 * leak retains every event (~80 MB here), a flat wrapper retains nothing of them.
 */
const forceGc = (): (() => void) => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
};

const EVENTS = 10_000;
const EVENT_BYTES = 8 * 1024;

/** A client subscription that makes each event on demand, so only what the wrapper keeps stays alive. */
class GeneratedSource implements ClientAllSubscription {
  async unsubscribe(): Promise<void> {}
  async *[Symbol.asyncIterator](): AsyncIterator<AllStreamResolvedEvent> {
    for (let offset = 1; ; offset++) {
      yield {
        event: {
          streamId: 'node-n1',
          id: `00000000-0000-4000-8000-${String(offset).padStart(12, '0')}`,
          isJson: true,
          revision: BigInt(offset - 1),
          type: 'NodeAcquired',
          created: new Date(0),
          // A distinct flat string per event (hex of random bytes), EVENT_BYTES long.
          data: { blob: randomBytes(EVENT_BYTES / 2).toString('hex') },
          metadata: { correlationId: 'c', causationId: null, actor: 'a', requestId: null, schemaVersion: 1 },
          position: { commit: BigInt(offset * 100), prepare: BigInt(offset * 100) },
        },
      } as AllStreamResolvedEvent;
    }
  }
}

describe('EventStoreDB $all subscription wrapper: memory', () => {
  it(`keeps the heap flat over ${EVENTS} events of ${EVENT_BYTES / 1024} KB while open`, async () => {
    const gc = forceGc();
    const subscription = new EventStoreDbAllSubscription(new GeneratedSource(), undefined);
    const iterator = subscription[Symbol.asyncIterator]();
    await iterator.next(); // warm up: the generator, the mapping and the first event exist
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let taken = 1; taken < EVENTS; taken++) await iterator.next();
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    await subscription.close();
    const leakedIfEveryEventKept = EVENTS * EVENT_BYTES;
    assert.ok(
      retained < leakedIfEveryEventKept / 4,
      `heap grew by ${Math.round(retained / 1e6)} MB over ${EVENTS} events while the subscription stayed open`,
    );
  });
});
