import { basename } from 'node:path';
import { UsageError, type CliCommand, type CliIo, type ParsedArgs } from '../cli-command';
import { LEASE_FILE_FORMATS, type LeaseFileFormat } from '@ledger/lease-files';
import { buildImportReport, formatImportTable } from '../lease-import/import-report';
import { STORAGE_FAULT_MESSAGES, type StorageFaultCode } from '@ledger/event-store';
import { STORAGE_FAULT_EXIT } from '../exit-codes';
import { quoteText } from '@ledger/lease-files';
import { LedgerHttpError, LeaseObservationsClient, storageFaultCode } from '../lease-import/lease-observations-client';
import { ImportInterrupted, postInBatches, type PostOutcome } from '../lease-import/post-in-batches';
import { ProgressBar } from '../lease-import/progress-bar';
import { LeaseFileMissing, readLeaseFiles, resolveLeaseFiles, type LeaseFileSource } from '../lease-import/read-lease-files';
import { NotALeaseFile } from '@ledger/lease-files';
import type { LeaseFileReading } from '@ledger/lease-files';

const DEFAULT_URL = 'http://127.0.0.1:3000';
/** The endpoint takes at most this many records per request. */
const MAX_BATCH = 5000;
/** Times a batch is posted again, after the ledger's Retry-After, while its disk is full or read-only. */
const STORAGE_RETRIES = 3;

const USAGE = `usage: ledger-cli import <file> [options]

Reads a DHCP server's lease file and posts the current lease of every address in it to
the ledger (POST /v1/observations/leases), which answers valid, orphaned, released or
unknown for each. Safe to re-run: records the ledger already has append nothing.

  <file>                 an ISC dhcpd.leases file or a Kea memfile CSV, plain or gzipped
                         (told by its bytes, not its name). For Kea give the
                         file Kea writes (kea-leases4.csv): <file>.2 and <file>.1 (or
                         <file>.completed) are read before it, in Kea's own order
  --format isc|kea|auto  the file's format (default auto: told from its first line)
  --source NAME          the DHCP server the leases come from (default <format>:<file name>)
  --url URL              the ledger (default $LEDGER_URL, else ${DEFAULT_URL})
  --batch N              records per request, 1-${MAX_BATCH} (default 1000)
  --dry-run              read and report; post nothing
  --report table|json    the report (default table); json lists every skipped line and
                         every orphaned lease

environment: LEDGER_URL (default for --url), LEDGER_API_KEY (sent as a bearer token)
exit codes: 0 done (skipped lines are reported, not fatal; an empty file has no leases),
1 failed (the ledger is unreachable or answered other than 2xx), 2 usage, or the file is
not a lease file (binary, corrupt gzip, or lines no lease file holds: reading stops)`;

export interface ImportOptions {
  file: string;
  format: LeaseFileFormat | 'auto';
  source: string | undefined;
  url: string;
  batch: number;
  dryRun: boolean;
  report: 'table' | 'json';
}

const oneOf = <T extends string>(args: ParsedArgs, name: string, allowed: readonly T[], fallback: T): T => {
  const value = args.flags[name];
  if (value === undefined) return fallback;
  if (value === true || !allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
};

export const parseImportOptions = (args: ParsedArgs, env: NodeJS.ProcessEnv): ImportOptions => {
  // Unknown options and values given to --dry-run were refused by the strict parser already.
  const positional = args.positional;
  if (positional.length !== 1) throw new UsageError(positional.length === 0 ? 'which lease file?' : `one lease file at a time, got ${positional.length}`);
  const batchText = args.flags.batch ?? '1000';
  const batch = Number(batchText);
  if (batchText === true || !Number.isInteger(batch) || batch < 1 || batch > MAX_BATCH)
    throw new UsageError(`--batch must be a whole number from 1 to ${MAX_BATCH}`);
  const url = args.flags.url ?? env.LEDGER_URL ?? DEFAULT_URL;
  if (url === true || !/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)) throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
  const source = args.flags.source;
  if (source === true || (source !== undefined && (source.trim() === '' || source.length > 128)))
    throw new UsageError('--source must be a name of 1-128 characters');
  return {
    file: positional[0],
    format: oneOf(args, 'format', [...LEASE_FILE_FORMATS, 'auto'] as const, 'auto'),
    source,
    url,
    batch,
    dryRun: args.flags['dry-run'] === true,
    report: oneOf(args, 'report', ['table', 'json'] as const, 'table'),
  };
};

/** A source name the ledger takes as an id: the format and the file's name, in safe characters. */
export const defaultSourceName = (format: LeaseFileFormat, file: string): string =>
  `${format}:${basename(file)}`.replace(/[^A-Za-z0-9._:@-]/g, '-').slice(0, 128);

export interface ImportDependencies {
  fetch?: typeof fetch;
  /** A monotonic clock in ms (progress, elapsed time). */
  now?: () => number;
  /** Where the progress bar draws (stderr). */
  writeProgress?: (text: string) => void;
  retryDelaysMs?: number[];
  /** Waits before retrying (Retry-After); tests record them instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
}

/** Nothing is posted from a file that is not a lease file; exit 2, as for any input the command cannot take. */
const notALeaseFile = (io: CliIo, error: NotALeaseFile, bar?: ProgressBar | null): number => {
  bar?.clear();
  io.err(`import stopped: ${error.message}; nothing was posted`);
  return 2;
};

const run = async (args: ParsedArgs, io: CliIo, deps: ImportDependencies): Promise<number> => {
  const options = parseImportOptions(args, io.env);
  // Progress and elapsed time: intervals, so the monotonic clock.
  const now = deps.now ?? (() => performance.now());
  const started = now();
  let files: LeaseFileSource;
  try {
    files = resolveLeaseFiles(options.file, options.format);
  } catch (error) {
    if (error instanceof LeaseFileMissing) throw new UsageError(error.message);
    if (error instanceof NotALeaseFile) return notALeaseFile(io, error);
    throw error;
  }
  const source = options.source ?? defaultSourceName(files.format, options.file);
  const bar = (label: string, total: number, unit: 'bytes' | 'records') =>
    io.interactive ? new ProgressBar({ label, total, unit, now, write: deps.writeProgress ?? ((text) => process.stderr.write(text)) }) : null;

  const reading$ = bar('reading', files.totalBytes, 'bytes');
  let reading: LeaseFileReading;
  try {
    reading = await readLeaseFiles(files, (bytes, addresses) => reading$?.update(bytes, addresses));
  } catch (error) {
    if (error instanceof NotALeaseFile) return notALeaseFile(io, error, reading$);
    throw error;
  } finally {
    reading$?.clear();
  }

  let outcome: PostOutcome | null = null;
  if (!options.dryRun) {
    const client = new LeaseObservationsClient({
      url: options.url,
      source,
      apiKey: io.env.LEDGER_API_KEY || undefined,
      fetch: deps.fetch,
      retryDelaysMs: deps.retryDelaysMs,
      sleep: deps.sleep,
      storageRetries: STORAGE_RETRIES,
    });
    const posting$ = bar('posting', reading.records.length, 'records');
    try {
      outcome = await postInBatches(reading.records, options.batch, client, (handled) => posting$?.update(handled, handled));
    } catch (error) {
      posting$?.clear();
      if (!(error instanceof ImportInterrupted)) throw error;
      const done = error.outcome.posted;
      const fault = storageFaultCode(error.cause);
      if (fault) {
        // The ledger's disk, not the import, is at fault: one line naming it, and EX_TEMPFAIL like the other tools.
        const condition = STORAGE_FAULT_MESSAGES[fault as StorageFaultCode] ?? quoteText((error.cause as LedgerHttpError).message);
        io.err(
          `import stopped after ${done.toLocaleString('en-US')} of ${reading.records.length.toLocaleString('en-US')} records were posted: the ledger cannot write (${fault}): ${condition}; still so after ${STORAGE_RETRIES} retries`,
        );
        io.err('run it again once the ledger can write: nothing is posted twice');
        return STORAGE_FAULT_EXIT;
      }
      io.err(`import failed after ${done.toLocaleString('en-US')} of ${reading.records.length.toLocaleString('en-US')} records were posted: ${error.message}`);
      const status = error.cause instanceof LedgerHttpError ? error.cause.status : 0;
      if (status === 401 || status === 403) io.err('set LEDGER_API_KEY to a provider or operator key (ledger-cli keys add --name dhcp --role provider)');
      io.err('nothing is lost by trying again: the ledger appends nothing for records it already has');
      return 1;
    }
    posting$?.clear();
  }
  const report = buildImportReport(
    { file: options.file, source, url: options.dryRun ? null : options.url, dryRun: options.dryRun, elapsedMs: now() - started },
    files,
    reading,
    outcome,
  );
  io.out(options.report === 'json' ? JSON.stringify(report, null, 2) : formatImportTable(report));
  return 0;
};

/** `ledger-cli import`: a DHCP server's lease file into the ledger's lease observations. */
export const createImportCommand = (deps: ImportDependencies = {}): CliCommand => ({
  name: 'import',
  summary: 'import a dhcpd.leases or Kea lease file; report the orphaned leases',
  options: {
    format: { type: 'string' },
    source: { type: 'string' },
    url: { type: 'string' },
    batch: { type: 'string' },
    'dry-run': { type: 'boolean' },
    report: { type: 'string' },
  },
  usage: USAGE,
  run: (args, io) => run(args, io, deps),
});

export const importCommand = createImportCommand();
