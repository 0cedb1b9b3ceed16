import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteEventStore, type RecordedEvent } from '@ledger/event-store';
import { ReturnedPositionsOnlyStore } from '@ledger/event-store/testing';
import type { Projection } from '../runtime/projection';
import { eventAtOrAfter, positionAtTime } from './point-in-log';
import { stateAt } from './state-at';

/**
 * Issue 12, point 2: time travel and audit-by-time must move only between positions the
 * store returned, because EventStoreDB fails a read from any other number (see
 * ReturnedPositionsOnlyStore for the server's behaviour and its sources). They used to
 * compute positions (`position - 1`, a binary search over numbers) above the port.
 */
const counting: Projection<{ position: number; events: number }> = {
  name: 'counting.v1',
  initialState: () => ({ position: 0, events: 0 }),
  apply: (state, event) => {
    state.events += 1;
    state.position = event.position;
  },
};

describe('time travel sends only returned positions to the store', () => {
  let dir: string;
  let inner: SqliteEventStore;
  let store: ReturnedPositionsOnlyStore;
  const written: RecordedEvent[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-returned-positions-'));
    let second = 0;
    inner = await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL', clock: () => new Date(Date.UTC(2026, 0, 1) + ++second * 1000) });
    for (let i = 0; i < 40; i++) {
      const id = randomUUID();
      await inner.appendToStream(`node-n${i % 4}`, [{ id, type: 'NodeRegistered', data: { i }, metadata: { correlationId: id, causationId: null, actor: 't', requestId: null, schemaVersion: 1 } }], 'any');
    }
    written.push(...(await inner.readAll({ maxCount: 100 })));
    store = new ReturnedPositionsOnlyStore(inner);
  });

  after(async () => {
    await inner.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the position at a time', async () => {
    const target = written[16];
    assert.equal(await positionAtTime(store, new Date(target.recordedAt)), target.position);
    assert.equal(await positionAtTime(store, new Date(Date.parse(target.recordedAt) + 500), await store.headPosition()), target.position);
    assert.equal(await positionAtTime(store, new Date(Date.UTC(2025, 0, 1))), 0);
  });

  it('the event at or after any number', async () => {
    assert.equal((await eventAtOrAfter(store, written[9].position))?.id, written[9].id);
    assert.equal((await eventAtOrAfter(store, 1))?.id, written[0].id);
    assert.equal(await eventAtOrAfter(store, written[39].position + 1), null);
  });

  it('the state at a time, folded from a position found by time', async () => {
    const position = await positionAtTime(store, new Date(written[24].recordedAt));
    const result = await stateAt(store, counting, position, null);
    assert.equal(result.state.events, 25);
    assert.equal(result.lastRecordedAt, written[24].recordedAt);
  });
});
