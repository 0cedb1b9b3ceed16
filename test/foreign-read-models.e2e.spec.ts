/**
 * Issue 12, point 7: a read-model file folded from another event store is refused at start
 * with a clear message, not resumed from a foreign position (on EventStoreDB a position that
 * is no event's; on any store, the wrong events).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerProcess } from './support/ledger-process';
import { enlist } from './support/fixtures';

describe('a read-model file built against another store', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is refused at start, naming the file and what to do', async () => {
    const first = LedgerProcess.tempDataDir();
    const second = LedgerProcess.tempDataDir();
    dirs.push(first, second);
    const readModels = join(first, 'read-models');
    const ledger = await LedgerProcess.start({ dataDir: first, env: { LEDGER_READ_MODEL_DIR: readModels } });
    await enlist(ledger, 'origin-n1');
    await ledger.stop();

    // The same store again: resumes.
    const again = await LedgerProcess.start({ dataDir: first, env: { LEDGER_READ_MODEL_DIR: readModels } });
    await again.stop();

    // Another store (a fresh embedded file) with the first one's read models: refused.
    const refusal = await LedgerProcess.start({ dataDir: second, env: { LEDGER_READ_MODEL_DIR: readModels } }).then(
      async (started) => (await started.stop(), null),
      (error: Error) => error,
    );
    assert.ok(refusal, 'the ledger started on read models folded from another store');
    assert.match(refusal.message, /configuration error: the read models in .*read-models\.sqlite were built from another event store/);
    assert.match(refusal.message, /LEDGER_READ_MODEL_DIR/);
    assert.doesNotMatch(refusal.message, /\n\s+at /, 'a message, not a stack trace');
  });
});
