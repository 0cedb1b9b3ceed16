import { IscLeaseParser } from './isc-dhcpd-parser';
import type { LeaseFileProblem, LeaseRecord, LeaseSink } from './lease-record';

/** No line of a lease file comes near this; a longer run without a newline is cut here and refused by the parser, so memory stays bounded. */
export const MAX_ISC_LINE_BYTES = 16 * 1024;

type Held = { kind: 'record'; record: LeaseRecord } | { kind: 'problem'; problem: LeaseFileProblem } | { kind: 'ignore'; reason: string; ip?: string };

/**
 * dhcpd.leases read as a stream of bytes from a known offset, for a follower that keeps a
 * checkpoint: what it reads reaches `sink` only once the declaration it belongs to is
 * complete, and `offset` only ever moves past complete declarations (`lease { }`, `failover
 * { }`, `host { }`, `server-duid ...;`). A block dhcpd is still writing (or that a crash cut
 * short, until the next declaration begins) is held back, so a reader that stops here and a
 * new one started at `offset` later together see every block exactly once.
 */
export class IscLeaseStream {
  private readonly parser: IscLeaseParser;
  private held: Held[] = [];
  private partial: Buffer[] = [];
  private partialLength = 0;
  private fed: number;
  private safe: number;

  constructor(
    private readonly sink: LeaseSink,
    options: { now: string; offset: number },
  ) {
    this.fed = options.offset;
    this.safe = options.offset;
    this.parser = new IscLeaseParser(
      {
        record: (record) => this.held.push({ kind: 'record', record }),
        problem: (problem) => this.held.push({ kind: 'problem', problem }),
        ignore: (reason, ip) => this.held.push({ kind: 'ignore', reason, ...(ip !== undefined ? { ip } : {}) }),
      },
      { now: options.now },
    );
  }

  /** Just past the last complete declaration: where a later reader starts. */
  get offset(): number {
    return this.safe;
  }

  /** Bytes handed in so far, a line still without its newline included: where the next `push` continues. */
  get consumed(): number {
    return this.fed + this.partialLength;
  }

  push(bytes: Uint8Array): void {
    let start = 0;
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      this.line(Buffer.from(bytes.subarray(start, end)), end - start + 1);
      start = end + 1;
    }
    if (start < bytes.length) {
      const rest = Buffer.from(bytes.subarray(start));
      this.partial.push(rest);
      this.partialLength += rest.length;
      if (this.partialLength > MAX_ISC_LINE_BYTES) this.line(Buffer.alloc(0), 0);
    }
  }

  private line(tail: Buffer, length: number): void {
    const whole = this.partial.length > 0 ? Buffer.concat([...this.partial, tail]) : tail;
    const size = this.partialLength + length;
    this.partial = [];
    this.partialLength = 0;
    this.parser.pushLine(whole.toString('utf8', 0, Math.min(whole.length, MAX_ISC_LINE_BYTES)));
    this.fed += size;
    if (!this.parser.atRest) return;
    this.safe = this.fed;
    const held = this.held;
    this.held = [];
    for (const item of held) {
      if (item.kind === 'record') this.sink.record(item.record);
      else if (item.kind === 'problem') this.sink.problem(item.problem);
      else this.sink.ignore(item.reason, item.ip);
    }
  }
}
