import { quoteText, type LeaseFileProblem, type LeaseRecord, type LeaseSink } from '@ledger/lease-files';

/**
 * Where the parser's records go while the journal is read: the latest record of each
 * address (a lease journal's last entry for an address is the one in force), and the
 * lines that could not be used or were left out, counted and handed on to be logged.
 */
export class JournalRecords implements LeaseSink {
  readonly latest = new Map<string, LeaseRecord>();
  problems = 0;

  constructor(
    private readonly onProblem: (problem: LeaseFileProblem) => void,
    /** A well-formed entry that leases no device an address (a delegated prefix, a DHCPv6 client without a MAC): counted, not posted. */
    private readonly onIgnored: (reason: string) => void = () => undefined,
  ) {}

  record(record: LeaseRecord): void {
    this.latest.delete(record.ip);
    this.latest.set(record.ip, record);
  }

  problem(problem: LeaseFileProblem): void {
    this.problems++;
    this.onProblem({ ...problem, reason: quoteText(problem.reason, 400) });
    if (problem.entry?.ip !== undefined) this.latest.delete(problem.entry.ip);
  }

  ignore(reason: string, ip?: string): void {
    this.onIgnored(reason);
    if (ip !== undefined) this.latest.delete(ip);
  }

  take(): LeaseRecord[] {
    const records = [...this.latest.values()];
    this.latest.clear();
    return records;
  }
}
