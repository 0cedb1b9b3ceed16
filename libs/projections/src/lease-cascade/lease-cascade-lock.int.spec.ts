/**
 * The lease cascade's timed checkpoint runs on the event loop: while another connection
 * holds the read-model file's write lock (the audit index's thread, a CLI rebuild beside
 * the server), it gives way instead of sleeping on the lock, the cascade keeps stepping
 * events, and the checkpoint is written once the lock is free.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '@ledger/event-store';
import { eventually } from '../runtime/testing/eventually';
import { CheckpointStore } from '../runtime/checkpoint-store';
import { LeaseCascadeRunner, LEASE_CASCADE_CHECKPOINT } from './lease-cascade-runner';

describe('the lease cascade’s checkpoint and the write lock', () => {
  it('gives way while another connection holds it, without holding up the cascade, and is written once it is free', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledger-cascade-lock-'));
    const store = await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL', pollIntervalMs: 5 });
    const file = join(dir, 'read-models.sqlite');
    const checkpoints = CheckpointStore.open(file);
    // A checkpoint that waited for the lock would hold this thread 20 s each time: three
    // could not be told apart from three that gave way within the 30 s this test waits.
    checkpoints.db.pragma('busy_timeout = 20000');
    const other = new Database(file);
    let deferred = 0;
    const runner = new LeaseCascadeRunner(
      store,
      checkpoints,
      { release: async () => undefined },
      { checkpointEveryMs: 10, onCheckpointDeferred: () => deferred++ },
    );
    const storedPosition = () => checkpoints.load<{ position: number }>(LEASE_CASCADE_CHECKPOINT)?.position ?? 0;
    try {
      for (let i = 0; i < 5; i++) {
        const id = randomUUID();
        await store.appendToStream(
          `node-n${i}`,
          [
            {
              id,
              type: 'NodeEnlisted',
              data: { nodeId: `n${i}` },
              metadata: { correlationId: id, causationId: null, actor: 't', requestId: null, schemaVersion: 1 },
            },
          ],
          'no_stream',
        );
      }
      const head = await store.headPosition();
      other.prepare('BEGIN IMMEDIATE').run();
      runner.start();
      assert.equal(await runner.catchUp(30_000), true);
      await eventually(() => deferred >= 3, 'three checkpoints that gave way');
      assert.equal(storedPosition(), 0);
      other.prepare('COMMIT').run();
      await eventually(() => storedPosition() === head, 'the checkpoint at the head');
    } finally {
      if (other.inTransaction) other.prepare('ROLLBACK').run();
      other.close();
      await runner.stop();
      checkpoints.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
