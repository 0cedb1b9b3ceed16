import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AppendRequest } from './append-request';
import { RecentCommits } from './recent-commits';
import type { WrittenBatch } from './sqlite-batch-writer';

const AT = '2031-02-03T04:05:06.789Z';

const request = (stream: string, ...ids: string[]): AppendRequest => ({
  stream,
  expectedRevision: 'any',
  events: ids.map((id) => ({ id, type: 'TestEventRecorded', data: `{"id":"${id}"}`, metadata: '{"actor":"test"}' })),
});

/** A batch as the writer answers it: `lastPositions[i]` is request i's last position, null for a refused append. */
const batch = (requests: AppendRequest[], lastPositions: (number | null)[], written = requests.map(() => true)): WrittenBatch => ({
  outcomes: lastPositions.map((position, index) =>
    position === null
      ? { ok: false, error: new Error('refused') }
      : { ok: true, value: { position, nextExpectedRevision: requests[index].events.length - 1, written: written[index] } },
  ),
  recordedAt: AT,
});

const positions = (events: { position: number }[] | undefined) => events?.map((event) => event.position);

describe('recent commits (the events a store handle hands its subscriptions from memory)', () => {
  it('hands out the events after a position, as a read of their rows would build them', () => {
    const recent = new RecentCommits(100);
    const requests = [request('node-a', 'e1', 'e2'), request('node-b', 'e3')];
    recent.remember(requests, batch(requests, [2, 3]));

    const [first, second, third] = recent.after(0, 10)!;
    assert.deepEqual(first, {
      id: 'e1',
      type: 'TestEventRecorded',
      stream: 'node-a',
      revision: 0,
      position: 1,
      recordedAt: AT,
      data: { id: 'e1' },
      metadata: { actor: 'test' },
    });
    assert.deepEqual([second.revision, second.position, third.stream, third.revision, third.position], [1, 2, 'node-b', 0, 3]);
    assert.deepEqual(third, {
      id: 'e3',
      type: 'TestEventRecorded',
      stream: 'node-b',
      revision: 0,
      position: 3,
      recordedAt: '2031-02-03T04:05:06.789Z',
      data: { id: 'e3' },
      metadata: { actor: 'test' },
    });
    assert.deepEqual(positions(recent.after(1, 10)), [2, 3]);
    assert.deepEqual(positions(recent.after(0, 2)), [1, 2]);
  });

  it('sends a read to the file unless it starts inside what is held', () => {
    const recent = new RecentCommits(100);
    assert.equal(recent.after(0, 10), undefined, 'nothing held yet');
    const requests = [request('node-a', 'e5', 'e6')];
    recent.remember(requests, batch(requests, [6]));
    assert.equal(recent.after(3, 10), undefined, 'position 4 was never held');
    assert.deepEqual(positions(recent.after(4, 10)), [5, 6]);
    assert.equal(recent.after(6, 10), undefined, 'after the last one held: another process may have appended since');
  });

  it('starts afresh when another process appended between two commits (positions would skip)', () => {
    const recent = new RecentCommits(100);
    const mine = [request('node-a', 'e1')];
    recent.remember(mine, batch(mine, [1]));
    const later = [request('node-a', 'e3')];
    recent.remember(later, batch(later, [3]));
    assert.equal(recent.after(0, 10), undefined, "position 2 is another process's: read the file");
    assert.equal(recent.after(1, 10), undefined);
    assert.deepEqual(positions(recent.after(2, 10)), [3]);
  });

  it('holds neither refused appends nor idempotent retries, which stored nothing', () => {
    const recent = new RecentCommits(100);
    const requests = [request('node-a', 'e1'), request('node-b', 'e2'), request('node-a', 'old'), request('node-c', 'e3')];
    recent.remember(requests, batch(requests, [1, null, 1, 2], [true, true, false, true]));
    assert.deepEqual(
      recent.after(0, 10)!.map((event) => event.id),
      ['e1', 'e3'],
    );
  });

  it('keeps at least its capacity of the newest events and lets older ones go', () => {
    const recent = new RecentCommits(3);
    for (let position = 1; position <= 20; position++) {
      const one = [request('node-a', `e${position}`)];
      recent.remember(one, batch(one, [position]));
      assert.deepEqual(
        positions(recent.after(Math.max(0, position - 3), 10)),
        [position - 2, position - 1, position].filter((held) => held >= 1),
      );
    }
    assert.equal(recent.after(0, 10), undefined);
  });
});
