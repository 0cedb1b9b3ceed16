/**
 * The running ledger copies its read-model file's WAL back on a thread of its own, not in
 * the commits its event loop makes (WalCheckpointer): those checkpoints, tens of megabytes
 * and a sync, stopped every request for 50-600 ms when one fell to the main thread
 * (issue 16). Seen from outside: the thread's checkpoints on /metrics, and a stop with no
 * word of it failing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { until, type LedgerProcess } from '@ledger/testing';
import { enlist } from './support/fixtures';
import { useLedger } from './support/lifecycle';

/** ledger_read_model_wal_checkpoint_seconds_count from /metrics. */
const walCheckpoints = async (ledger: LedgerProcess): Promise<number> => {
  const response = await ledger.get<string>('/metrics');
  assert.equal(response.status, 200);
  const count = /^ledger_read_model_wal_checkpoint_seconds_count (\S+)$/m.exec(response.body);
  assert.ok(count, 'no ledger_read_model_wal_checkpoint_seconds on /metrics');
  return Number(count[1]);
};

describe("the read-model file's WAL", () => {
  // A WAL of 20 pages is the thread's to copy back, long before the audit index's connection (1,000) would.
  const ledger = useLedger({ env: { LEDGER_CHECKPOINT_INTERVAL_MS: '20', LEDGER_SNAPSHOT_EVERY: '5', LEDGER_TEST_READ_MODEL_WAL_CHECKPOINT_PAGES: '20' } });

  it('is copied back into the file by its own thread while the ledger serves, and the ledger stops cleanly after', async () => {
    let enlisted = 0;
    await until(async () => {
      assert.equal((await enlist(ledger(), `wal-${enlisted++}`)).status, 201);
      assert.ok((await walCheckpoints(ledger())) >= 2, 'the thread has not copied the WAL back twice yet');
    });
    await ledger().stop();
    // No line says the thread could not start, failed a checkpoint, or stopped unasked.
    assert.doesNotMatch(ledger().logs, /read-model WAL/);
    assert.match(ledger().logs, /ledger stopping: closing the event store/);
  });
});
