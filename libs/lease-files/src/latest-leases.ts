import type { LeaseFileProblem, LeaseRecord, LeaseSink } from './lease-record';
import { quoteText } from './quote-text';

/** Reasons quote at most 80 characters of the file; this bounds the words around them. */
const MAX_REASON_LENGTH = 400;

/** What reading a lease file (or a set of them) came to. */
export interface LeaseFileReading {
  /** The current record of every address, in the order of each address's last entry. */
  records: LeaseRecord[];
  /** Every entry read (lease block, iaaddr, row): superseded, ignored and skipped ones included. */
  entries: number;
  /** Entries replaced by a later entry for the same address. */
  superseded: number;
  problems: LeaseFileProblem[];
  /** Well-formed entries left out on purpose, counted by why. */
  ignored: Record<string, number>;
}

/**
 * Lease files are append logs: dhcpd appends a whole new block whenever a lease changes,
 * Kea appends a row, and the last entry for an address is the one in force. This keeps
 * exactly that, so memory grows with the number of addresses, not the length of the log.
 */
export class LatestLeases implements LeaseSink {
  private readonly byIp = new Map<string, LeaseRecord>();
  private readonly problems: LeaseFileProblem[] = [];
  private readonly ignored: Record<string, number> = {};
  private entries = 0;
  private superseded = 0;

  record(record: LeaseRecord): void {
    this.entries++;
    if (this.byIp.delete(record.ip)) this.superseded++;
    this.byIp.set(record.ip, record);
  }

  problem(problem: LeaseFileProblem): void {
    // A last line of defence: whatever a parser quoted, no message carries raw control bytes or runs on for pages.
    this.problems.push({ ...problem, reason: quoteText(problem.reason, MAX_REASON_LENGTH) });
    if (!problem.entry) return;
    this.entries++;
    if (problem.entry.ip !== undefined && this.byIp.delete(problem.entry.ip)) this.superseded++;
  }

  ignore(reason: string, ip?: string): void {
    this.entries++;
    this.ignored[reason] = (this.ignored[reason] ?? 0) + 1;
    if (ip !== undefined && this.byIp.delete(ip)) this.superseded++;
  }

  get size(): number {
    return this.byIp.size;
  }

  reading(): LeaseFileReading {
    return {
      records: [...this.byIp.values()],
      entries: this.entries,
      superseded: this.superseded,
      problems: [...this.problems],
      ignored: { ...this.ignored },
    };
  }
}
