import { dirname } from 'node:path';
import { openReadModelDatabase, rebuildReadModels } from '@ledger/projections';
import { ensurePrivateDirectory } from '@ledger/event-store';
import type { CliCommand } from '../cli-command';
import { ledgerFiles, openLog, snapshotEvery } from '../data-dir';
import { ProgressBar } from '../progress-bar';

const USAGE = `usage: ledger-cli rebuild [--data-dir D] [--read-model-dir R] [--snapshot-every N]
Rebuilds every read model (the ledger view and its time-travel snapshots, the audit
index) from position 0 of the log into new tables, and switches to them when done.
Safe while the ledger runs: the log is opened read-only, queries keep reading the old
tables until the switch, and the running ledger follows the new ones.
options:
  --data-dir D        the ledger's data directory (default: LEDGER_DATA_DIR, else ./data)
  --read-model-dir R  where read-models.sqlite is (default: LEDGER_READ_MODEL_DIR, else the data directory)
  --snapshot-every N  snapshot spacing (default: LEDGER_SNAPSHOT_EVERY, else 10000; 0: none)`;

export const rebuildCommand: CliCommand = {
  name: 'rebuild',
  summary: 'rebuild every read model from the log (progress bar on a terminal)',
  options: { 'data-dir': { type: 'string' }, 'read-model-dir': { type: 'string' }, 'snapshot-every': { type: 'string' } },
  usage: USAGE,
  foldsTheLog: true,
  async run(args, io) {
    const files = ledgerFiles(args, io);
    const every = snapshotEvery(args, io);
    const log = openLog(files);
    ensurePrivateDirectory(dirname(files.readModelFile));
    const db = openReadModelDatabase(files.readModelFile, { mode: 'bulk' });
    const bar = new ProgressBar(io, 'rebuild');
    try {
      const result = await rebuildReadModels({
        store: log,
        db,
        snapshotEvery: every,
        onProgress: ({ position, until }) => bar.update(position, until),
        // The audit index fills on a second thread while this one folds the view (openLog reads through the ledger's upcasters).
        auditOnWorker: { eventFile: files.eventFile, ledgerUpcasters: true },
      });
      bar.done();
      const rate = result.seconds > 0 ? Math.round(result.events / result.seconds) : result.events;
      io.out(`rebuilt ${result.events} events to position ${result.position} in ${result.seconds.toFixed(1)} s (${rate} events/s) into ${files.readModelFile}`);
      return 0;
    } finally {
      db.close();
      await log.close();
    }
  },
};
