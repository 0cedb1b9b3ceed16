import { toObservation, type LeaseFileProblem, type LeaseOrigin, type LeaseRecord } from '@ledger/lease-files';
import { LedgerHttpError, type LeaseObservationsClient, type LeaseVerdict, type LeaseVerdictResult } from './lease-observations-client';

export type OrphanedLease = LeaseVerdictResult & { origin?: LeaseOrigin };

export interface PostOutcome {
  /** Records the ledger took and answered. */
  posted: number;
  /** Requests answered with a 2xx. */
  batches: number;
  verdicts: Record<LeaseVerdict, number>;
  orphaned: OrphanedLease[];
  /** Records the ledger refused as invalid (a 400 naming them); the rest of their batch was posted again without them. */
  rejected: LeaseFileProblem[];
  /** The highest global position the ledger returned, to read its views at. */
  position: number | null;
}

/** Posting stopped part way: what was done is in `outcome`, re-running finishes the job. */
export class ImportInterrupted extends Error {
  override readonly name = 'ImportInterrupted';
  constructor(
    readonly outcome: PostOutcome,
    override readonly cause: Error,
  ) {
    super(cause.message);
  }
}

const REJECTED_INDEX = /leases(?:\[(\d+)\]|\.(\d+))((?:\.\w+)*)/g;

/** The records of a batch a 400 names (`leases[3].mac` or `leases.3.mac`), with what it says about each. */
export const rejectedRecords = (body: unknown, size: number): Map<number, string> => {
  const rejected = new Map<number, string>();
  const add = (text: string, problem: string) => {
    for (const match of text.matchAll(REJECTED_INDEX)) {
      const index = Number(match[1] ?? match[2]);
      if (index < size) rejected.set(index, [rejected.get(index), problem].filter(Boolean).join('; '));
    }
  };
  const { details, message } = (body ?? {}) as { details?: unknown; message?: unknown };
  if (Array.isArray(details)) {
    for (const detail of details as { field?: unknown; problems?: unknown }[]) {
      if (typeof detail?.field !== 'string') continue;
      const problems = Array.isArray(detail.problems) ? detail.problems.join(', ') : 'invalid';
      add(detail.field, `${detail.field.replace(/^leases(\[\d+\]|\.\d+)\.?/, '') || 'record'}: ${problems}`);
    }
  }
  const messages = Array.isArray(message) ? message : typeof message === 'string' ? message.split(' | ') : [];
  if (rejected.size === 0) for (const text of messages) if (typeof text === 'string') add(text, text);
  return rejected;
};

const emptyOutcome = (): PostOutcome => ({
  posted: 0,
  batches: 0,
  verdicts: { valid: 0, orphaned: 0, released: 0, unknown: 0 },
  orphaned: [],
  rejected: [],
  position: null,
});

/**
 * Posts the records in batches, one request at a time. A batch too large for the ledger
 * (413) is split in two; a batch the ledger refuses because of named records (400
 * `leases[i].field`) is posted again without them, and they are reported. Anything else
 * stops the import: it is safe to re-run, the endpoint appends nothing for records it has.
 */
export const postInBatches = async (
  records: LeaseRecord[],
  batchSize: number,
  client: Pick<LeaseObservationsClient, 'post'>,
  onProgress: (handled: number) => void = () => {},
): Promise<PostOutcome> => {
  const outcome = emptyOutcome();
  const queue: LeaseRecord[][] = [];
  for (let i = 0; i < records.length; i += batchSize) queue.push(records.slice(i, i + batchSize));
  let handled = 0;
  while (queue.length > 0) {
    const batch = queue.shift()!;
    try {
      const response = await client.post(batch.map(toObservation));
      const byIp = new Map(batch.map((record) => [record.ip, record]));
      for (const result of response.results) {
        if (result.verdict in outcome.verdicts) outcome.verdicts[result.verdict]++;
        if (result.verdict === 'orphaned') outcome.orphaned.push({ ...result, ...(byIp.get(result.ip) ? { origin: byIp.get(result.ip)!.origin } : {}) });
      }
      outcome.posted += batch.length;
      outcome.batches++;
      if (typeof response.position === 'number') outcome.position = Math.max(outcome.position ?? 0, response.position);
      handled += batch.length;
      onProgress(handled);
    } catch (error) {
      if (error instanceof LedgerHttpError && error.status === 413 && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        queue.unshift(batch.slice(0, half), batch.slice(half));
        continue;
      }
      const named = error instanceof LedgerHttpError && error.status === 400 ? rejectedRecords(error.body, batch.length) : new Map<number, string>();
      if (error instanceof LedgerHttpError && error.status === 413) named.set(0, 'the record alone is larger than the ledger takes');
      if (named.size === 0) throw new ImportInterrupted(outcome, error instanceof Error ? error : new Error(String(error)));
      for (const [index, problem] of named) {
        const { origin, ip } = batch[index];
        outcome.rejected.push({ ...origin, reason: `${ip} rejected by the ledger: ${problem}` });
      }
      const rest = batch.filter((_, index) => !named.has(index));
      handled += named.size;
      if (rest.length > 0) queue.unshift(rest);
      onProgress(handled);
    }
  }
  return outcome;
};
