import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadModelDatabase, verifyReadModels } from '@ledger/projections';
import { stringFlag } from '../parse-args';
import { UsageError, type CliCommand } from '../cli-command';
import { ledgerFiles, openLog } from '../data-dir';
import { ProgressBar } from '../progress-bar';

const USAGE = `usage: ledger-cli verify [--data-dir D] [--read-model-dir R] [--snapshots K|all] [--keep-scratch]
Invariant 8 on this ledger's files: rebuilds every read model from position 0 of the log
into a scratch database (in the temp directory) and compares it with the live read
models at the positions they reflect: the ledger view at its checkpoint, the audit
index row by row, and live time-travel snapshots against the fold stopped there.
Exit 0 and "verified N events at position P" when they match; exit 1 and the
differences when they do not. What the ledger has not checkpointed yet (in its first
checkpoint interval) is listed as "not compared yet", and is not a failure. Safe while the ledger runs: the log and the live read
models are opened read-only.
options:
  --snapshots K      how many live snapshots to check (default 4, spread over the log; all: every one)
  --keep-scratch     leave the scratch database for inspection
  --data-dir, --read-model-dir: as for rebuild`;

export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'rebuild into a scratch store and compare with the live read models',
  options: { snapshots: { type: 'string' }, 'keep-scratch': { type: 'boolean' }, 'data-dir': { type: 'string' }, 'read-model-dir': { type: 'string' } },
  usage: USAGE,
  foldsTheLog: true,
  async run(args, io) {
    const files = ledgerFiles(args, io);
    const samplesFlag = stringFlag(args, 'snapshots') ?? '4';
    if (!/^([0-9]{1,6}|all)$/.test(samplesFlag)) throw new UsageError('--snapshots must be a count or "all"');
    if (!existsSync(files.readModelFile)) {
      io.err(`no read models at ${files.readModelFile}: nothing to verify (has the ledger run on this data directory?)`);
      return 1;
    }
    const log = openLog(files);
    const live = openReadModelDatabase(files.readModelFile, { readonly: true });
    const scratchDir = mkdtempSync(join(tmpdir(), 'ledger-verify-'));
    const scratch = openReadModelDatabase(join(scratchDir, 'read-models.sqlite'), { mode: 'scratch' });
    const bar = new ProgressBar(io, 'verify');
    try {
      const result = await verifyReadModels({
        store: log,
        live,
        scratch,
        snapshotSamples: samplesFlag === 'all' ? Infinity : Number(samplesFlag),
        onProgress: ({ position, until }) => bar.update(position, until),
      });
      bar.done();
      const checked = `${result.checked.viewAt === null ? 'view not compared' : `view at ${result.checked.viewAt}`}, ${result.checked.auditRows} audit rows, snapshots at ${result.checked.snapshots.join(', ') || 'none'}`;
      if (result.ok) {
        io.out(`verified ${result.events} events at position ${result.position} (${checked})`);
        // Said plainly, and not a failure: a healthy ledger in its first checkpoint interval has nothing to compare yet.
        for (const line of result.notYetCompared) io.out(`not compared yet: ${line}; run verify again later to compare it`);
        return 0;
      }
      for (const line of result.notYetCompared) io.err(`not compared yet: ${line}`);
      io.err(`MISMATCH: the live read models differ from a rebuild of ${result.events} events to position ${result.position} (${checked}):`);
      for (const line of result.differences) io.err(`  ${line}`);
      return 1;
    } finally {
      scratch.close();
      live.close();
      await log.close();
      if (args.flags['keep-scratch'] === true) io.err(`scratch read models kept in ${scratchDir}`);
      else rmSync(scratchDir, { recursive: true, force: true });
    }
  },
};
