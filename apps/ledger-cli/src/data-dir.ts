import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventStoreFile, SqliteReadOnlyEventStore } from '@ledger/event-store';
import { LEDGER_UPCASTERS, readModelFile } from '@ledger/projections';
import { stringFlag } from './parse-args';
import { UsageError, type CliIo, type ParsedArgs } from './cli-command';

export interface LedgerFiles {
  dataDir: string;
  eventFile: string;
  readModelFile: string;
}

/** The embedded store's files, as the ledger itself finds them: --data-dir, else LEDGER_DATA_DIR, else ./data. */
export const ledgerFiles = (args: ParsedArgs, io: CliIo): LedgerFiles => {
  const dataDir = resolve(stringFlag(args, 'data-dir') ?? io.env.LEDGER_DATA_DIR ?? './data');
  const readModelDir = resolve(stringFlag(args, 'read-model-dir') ?? io.env.LEDGER_READ_MODEL_DIR ?? dataDir);
  return { dataDir, eventFile: eventStoreFile({ dataDir }), readModelFile: readModelFile({ readModelDir }) };
};

/** The log, read-only: safe beside a running ledger (WAL), never written through this handle, every event in its current shape. */
export const openLog = (files: LedgerFiles): SqliteReadOnlyEventStore => {
  if (!existsSync(files.eventFile)) throw new UsageError(`no event store at ${files.eventFile} (give --data-dir, or set LEDGER_DATA_DIR)`);
  return SqliteReadOnlyEventStore.open({ file: files.eventFile, upcasters: LEDGER_UPCASTERS });
};

/** --snapshot-every, else LEDGER_SNAPSHOT_EVERY, else the ledger's default. */
export const snapshotEvery = (args: ParsedArgs, io: CliIo): number => {
  const raw = stringFlag(args, 'snapshot-every') ?? io.env.LEDGER_SNAPSHOT_EVERY ?? '10000';
  if (!/^[0-9]{1,9}$/.test(raw)) throw new UsageError('--snapshot-every must be a non-negative integer');
  return Number(raw);
};
