import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore, type SubscriptionRestart } from '@ledger/event-store';
import { DroppingSubscriptionsStore } from '@ledger/event-store/testing';
import { CheckpointStore } from './checkpoint-store';
import type { Projection } from './projection';
import { ProjectionRunner } from './projection-runner';
import { openReadModelDatabase } from './read-model-database';

/**
 * Issue 12, point 3: projectors follow the log through the shared LogFollower. Behind a
 * store that drops every live subscription after a few events (error or clean end), a
 * projection still folds every event exactly once and reports each restart.
 */
const counting: Projection<{ position: number; positions: number[] }> = {
  name: 'counting.v1',
  initialState: () => ({ position: 0, positions: [] }),
  apply: (state, event) => {
    state.positions.push(event.position);
    state.position = event.position;
  },
};

const event = () => {
  const id = randomUUID();
  return { id, type: 'NodeRegistered', data: {}, metadata: { correlationId: id, causationId: null, actor: 't', requestId: null, schemaVersion: 1 } };
};

describe('a projector behind dropped subscriptions', () => {
  it('folds every event once, in order, resubscribing from its position', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledger-resubscribe-'));
    const inner = await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL', pollIntervalMs: 5 });
    const db = openReadModelDatabase(join(dir, 'read-models.sqlite'));
    const restarts: SubscriptionRestart[] = [];
    const runner = new ProjectionRunner(new DroppingSubscriptionsStore(inner, { seed: 9, maxEvents: 3 }), CheckpointStore.on(db), counting, {
      retryMs: 1,
      onRestart: (restart) => restarts.push(restart),
    });
    try {
      for (let i = 0; i < 5; i++) await inner.appendToStream(`node-${i}`, [event()], 'any');
      runner.start();
      assert.equal(await runner.catchUp(30_000), true);
      // One at a time, each waited for: every one is delivered live, through subscriptions that keep dying.
      for (let i = 0; i < 30; i++) {
        const { position } = await inner.appendToStream(`node-${i % 7}`, [event()], 'any');
        assert.equal(await runner.waitFor(position, 30_000), true, `event ${i} never folded`);
      }
      const all = (await inner.readAll({ maxCount: 100 })).map((recorded) => recorded.position);
      assert.deepEqual(runner.state.positions, all);
      assert.ok(restarts.length > 0 && restarts.every((restart) => restart.subscriber === 'counting.v1'));
    } finally {
      await runner.stop();
      db.close();
      await inner.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
