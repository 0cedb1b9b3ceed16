/**
 * The ledger's event loop never waits on another writer of its read-model file. The writes
 * it makes on its own schedule (the ledger view's checkpoints and snapshots, the lease
 * cascade's checkpoints) give way to a connection holding the file's write lock, as
 * `ledger-cli rebuild` beside a running ledger does for seconds while it builds its indexes
 * and promotes, and are made once the lock is free. Before, one falling due then slept in
 * SQLite's busy handler on the main thread, and no request was answered until the lock was
 * let go (issue 16).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ledgerProjection, SnapshotReader } from '@ledger/projections';
import { until, type LedgerProcess } from '@ledger/testing';
import { enlist } from './support/fixtures';
import { useLedger } from './support/lifecycle';

/** ledger_read_model_writes_deferred_total by write, from /metrics. */
const deferredWrites = async (ledger: LedgerProcess): Promise<Map<string, number>> => {
  const response = await ledger.get<string>('/metrics');
  assert.equal(response.status, 200);
  const counts = new Map<string, number>();
  for (const match of response.body.matchAll(/^ledger_read_model_writes_deferred_total\{write="([^"]+)"\} (\S+)$/gm)) counts.set(match[1], Number(match[2]));
  return counts;
};

describe('a write lock held on the read-model file beside the running ledger', () => {
  // The view's checkpoint falls due every 20 ms, a snapshot every 5 events, the lease cascade's checkpoint every second.
  const ledger = useLedger({ env: { LEDGER_CHECKPOINT_INTERVAL_MS: '20', LEDGER_SNAPSHOT_EVERY: '5' } });

  it('holds up no request: the checkpoints and snapshots falling due meanwhile give way, and are written once it is free', async () => {
    assert.equal((await enlist(ledger(), 'lock-first')).status, 201);
    const file = join(ledger().dataDir, 'read-models.sqlite');
    const other = new Database(file);
    // The ledger's audit index thread may hold the lock for a page: take it after that one.
    other.pragma('busy_timeout = 30000');
    let head = 0;
    let lockedAt = 0;
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      // Each command moves the view and the cascade, so each checkpoint that falls due has
      // something to write. A checkpoint that waited for the lock would hold every request
      // for the server's busy timeout (10 s), every time one fell due: twenty commands
      // answered after the first that gave way could not be.
      let enlisted = 0;
      let answeredSinceFirstDeferral = 0;
      await until(async () => {
        const answer = await enlist(ledger(), `lock-${enlisted++}`);
        assert.equal(answer.status, 201);
        head = answer.body.position as number;
        const deferred = await deferredWrites(ledger());
        const count = (write: string) => deferred.get(write) ?? 0;
        if (count('ledger-view.v3/checkpoint') > 0) answeredSinceFirstDeferral++;
        assert.ok(answeredSinceFirstDeferral >= 20, `commands answered since a checkpoint first gave way: ${answeredSinceFirstDeferral}`);
        assert.ok(count('ledger-view.v3/checkpoint') >= 3, `view checkpoints that gave way: ${count('ledger-view.v3/checkpoint')}`);
        assert.ok(count('ledger-view.v3/snapshot') >= 3, `view snapshots that gave way: ${count('ledger-view.v3/snapshot')}`);
        assert.ok(count('lease-cascade.v1/checkpoint') >= 1, `cascade checkpoints that gave way: ${count('lease-cascade.v1/checkpoint')}`);
      });
      // Nothing was checkpointed or snapshotted past the lock.
      const positions = other.prepare("SELECT name, position FROM checkpoints WHERE name IN ('ledger-view.v3/entities', 'lease-cascade.v1')").all() as {
        position: number;
      }[];
      assert.ok(positions.every(({ position }) => position < head));
      lockedAt = Math.max(0, ...new SnapshotReader(other, ledgerProjection.name).positions());
    } finally {
      if (other.inTransaction) other.prepare('COMMIT').run();
    }
    try {
      await until(async () => {
        const positions = other.prepare("SELECT name, position FROM checkpoints WHERE name IN ('ledger-view.v3/entities', 'lease-cascade.v1')").all() as {
          name: string;
          position: number;
        }[];
        assert.equal(positions.length, 2);
        for (const { name, position } of positions) assert.ok(position >= head, `${name} checkpointed at ${position}, the log at ${head}`);
        // The snapshot owed is taken where the fold is at its next page once the lock is free.
        assert.ok(Math.max(0, ...new SnapshotReader(other, ledgerProjection.name).positions()) > lockedAt, 'no snapshot after the lock');
      });
    } finally {
      other.close();
    }
  });
});
