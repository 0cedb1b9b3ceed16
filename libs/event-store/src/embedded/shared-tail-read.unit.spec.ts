import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '../envelope';
import { SharedTailRead } from './shared-tail-read';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedTailRead', () => {
  const counting = () => {
    const reads: Array<[number, number]> = [];
    const tail = new SharedTailRead((after, max) => {
      reads.push([after, max]);
      return [{ position: after + 1 } as RecordedEvent];
    });
    return { reads, tail };
  };

  it('answers the subscriptions woken by one commit with one read', () => {
    const { reads, tail } = counting();
    const first = tail.read(10, 256, 1);
    assert.equal(tail.read(10, 256, 1), first);
    assert.equal(tail.read(10, 256, 1), first);
    assert.deepEqual(reads, [[10, 256]]);
  });

  it('reads again for another position, another page size or a newer commit', () => {
    const { reads, tail } = counting();
    tail.read(10, 256, 1);
    tail.read(11, 256, 1);
    tail.read(11, 100, 1);
    tail.read(11, 100, 2);
    assert.equal(reads.length, 4);
  });

  it('forgets its read on the next turn (another process may have appended since)', async () => {
    const { reads, tail } = counting();
    tail.read(10, 256, 1);
    await nextTurn();
    tail.read(10, 256, 1);
    assert.equal(reads.length, 2);
  });
});
