/**
 * Issue 10, item 6: `ledger-cli verify` on a running ledger within its first checkpoint
 * interval reported a MISMATCH and exited 1, although nothing was wrong. An operator who
 * runs verify during an incident must never get a false alarm: what has not been
 * checkpointed yet is said plainly, and a healthy ledger exits 0.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '@ledger/testing';
import { enlist } from './support/fixtures';
import { useLedger } from './support/lifecycle';

describe('ledger-cli verify on a freshly started ledger', () => {
  // An hour: the test runs well inside the first checkpoint interval, whatever the machine's load.
  const started = useLedger({ env: { LEDGER_CHECKPOINT_INTERVAL_MS: '3600000' } });

  it('passes, and says what it could not compare yet', async () => {
    const ledger = started();
    for (const nodeId of ['fresh-1', 'fresh-2']) assert.equal((await enlist(ledger, nodeId)).status, 201);
    const verified = await runCli(['verify', '--data-dir', ledger.dataDir]);
    assert.equal(verified.status, 0, `${verified.stdout}\n${verified.stderr}`);
    assert.doesNotMatch(verified.stderr, /MISMATCH/);
    assert.match(verified.stdout, /^verified \d+ events at position \d+ /);
    assert.match(verified.stdout, /\(view not compared, \d+ audit rows/);
    assert.match(verified.stdout, /not compared yet: the ledger-view(\.v\d+)?: no checkpoint yet/);
  });
});
