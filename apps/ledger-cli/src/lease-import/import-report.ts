import type { LeaseFileReading } from '@ledger/lease-files';
import { describeOrigin, LEASE_STATES, type LeaseFileProblem, type LeaseState } from '@ledger/lease-files';
import type { LeaseVerdict } from './lease-observations-client';
import type { OrphanedLease, PostOutcome } from './post-in-batches';
import type { LeaseFileSource } from './read-lease-files';

/** Everything an import did, as `--report json` prints it. */
export interface ImportReport {
  file: string;
  files: string[];
  format: LeaseFileSource['format'];
  source: string;
  url: string | null;
  dryRun: boolean;
  /** Every entry read (lease block, iaaddr, row): superseded, ignored and skipped ones included. */
  entries: number;
  superseded: number;
  /** Distinct addresses, each with its last entry: what is posted. */
  records: number;
  states: Record<LeaseState, number>;
  ignored: Record<string, number>;
  /** Entries not imported, with where they are: unreadable ones, and any the ledger refused. */
  skipped: LeaseFileProblem[];
  posted: number;
  batches: number;
  verdicts: Record<LeaseVerdict, number> | null;
  orphaned: OrphanedLease[];
  position: number | null;
  elapsedMs: number;
}

export const buildImportReport = (
  base: { file: string; source: string; url: string | null; dryRun: boolean; elapsedMs: number },
  files: LeaseFileSource,
  reading: LeaseFileReading,
  outcome: PostOutcome | null,
): ImportReport => {
  const states = Object.fromEntries(LEASE_STATES.map((state) => [state, 0])) as Record<LeaseState, number>;
  for (const record of reading.records) states[record.state]++;
  return {
    file: base.file,
    files: files.files,
    format: files.format,
    source: base.source,
    url: base.url,
    dryRun: base.dryRun,
    entries: reading.entries,
    superseded: reading.superseded,
    records: reading.records.length,
    states,
    ignored: reading.ignored,
    skipped: [...reading.problems, ...(outcome?.rejected ?? [])],
    posted: outcome?.posted ?? 0,
    batches: outcome?.batches ?? 0,
    verdicts: outcome ? outcome.verdicts : null,
    orphaned: outcome?.orphaned ?? [],
    position: outcome?.position ?? null,
    elapsedMs: base.elapsedMs,
  };
};

export const SKIPPED_LISTED = 20;
export const ORPHANED_LISTED = 50;

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const row = (label: string, value: number | string, note = '') =>
  `  ${label.padEnd(12)} ${String(typeof value === 'number' ? n(value) : value).padStart(9)}${note ? `  ${note}` : ''}`;
const breakdown = (counts: Record<string, number>, keepZeros = false) =>
  Object.entries(counts)
    .filter(([, count]) => keepZeros || count > 0)
    .map(([name, count]) => `${name} ${n(count)}`)
    .join(' · ');

/** The human report: counts, the first skipped lines, the first orphaned leases. */
export const formatImportTable = (report: ImportReport): string => {
  const lines: string[] = [];
  const where = report.files.length > 1 ? `${report.file} (${report.format}: ${report.files.join(', ')})` : `${report.file} (${report.format})`;
  lines.push(
    report.dryRun
      ? `Read ${where} as source "${report.source}" (dry run: nothing posted)`
      : `Imported ${where} as source "${report.source}" into ${report.url}`,
  );
  if (report.entries === 0 && report.skipped.length === 0) lines.push('  no leases: the file holds no lease entries');
  const ignoredCount = Object.values(report.ignored).reduce((a, b) => a + b, 0);
  const skippedEntries = report.entries - report.records - report.superseded - ignoredCount;
  const made = [
    report.superseded > 0 ? `${n(report.superseded)} superseded by a later entry` : '',
    ignoredCount > 0 ? `${n(ignoredCount)} ignored` : '',
    skippedEntries > 0 ? `${n(skippedEntries)} skipped` : '',
  ].filter(Boolean);
  lines.push(row('entries read', report.entries, made.length > 0 ? `(${made.join(', ')})` : ''));
  lines.push(row('addresses', report.records, breakdown(report.states)));
  const ignored = Object.values(report.ignored).reduce((a, b) => a + b, 0);
  if (ignored > 0)
    lines.push(
      row(
        'ignored',
        ignored,
        Object.entries(report.ignored)
          .map(([why, count]) => `${why}: ${n(count)}`)
          .join(' · '),
      ),
    );
  lines.push(
    row('skipped', report.skipped.length, report.skipped.length > SKIPPED_LISTED ? `(the first ${SKIPPED_LISTED} below; --report json lists all)` : ''),
  );
  for (const problem of report.skipped.slice(0, SKIPPED_LISTED)) lines.push(`    ${describeOrigin(problem)}: ${problem.reason}`);
  if (!report.dryRun && report.verdicts) {
    lines.push(row('posted', report.posted, `in ${n(report.batches)} batch${report.batches === 1 ? '' : 'es'}`));
    lines.push(`  ${'verdicts'.padEnd(12)} ${breakdown(report.verdicts, true)}`);
    lines.push(
      row('orphaned', report.orphaned.length, report.orphaned.length > ORPHANED_LISTED ? `(the first ${ORPHANED_LISTED} below; --report json lists all)` : ''),
    );
    if (report.orphaned.length > 0) {
      const shown = report.orphaned.slice(0, ORPHANED_LISTED);
      const ipWidth = Math.max(2, ...shown.map((o) => o.ip.length));
      lines.push(`    ${'IP'.padEnd(ipWidth)}  ${'MAC'.padEnd(17)}  REASON`);
      for (const o of shown) lines.push(`    ${o.ip.padEnd(ipWidth)}  ${o.mac.padEnd(17)}  ${o.reason}`);
    }
  }
  const seconds = report.elapsedMs / 1000;
  lines.push(`  took ${seconds.toFixed(1)} s (${n(seconds > 0 ? report.records / seconds : report.records)} addresses/s)`);
  return lines.join('\n');
};
