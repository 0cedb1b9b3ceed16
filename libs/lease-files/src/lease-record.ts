/**
 * What a DHCP server's lease file says about one address, in the shape the ledger's
 * `POST /v1/observations/leases` takes, plus where in the file it was read.
 */
export const LEASE_STATES = ['active', 'free', 'expired', 'released', 'abandoned', 'backup'] as const;
export type LeaseState = (typeof LEASE_STATES)[number];

export interface LeaseRecord {
  /** Canonical text: dotted quad, or RFC 5952 for IPv6. */
  ip: string;
  /** Lowercase, colon-separated EUI-48. */
  mac: string;
  state: LeaseState;
  /** ISO-8601 UTC. */
  starts?: string;
  /** ISO-8601 UTC; null when the lease never ends. */
  ends?: string | null;
  hostname?: string;
  /** Where the record was read: reported back to the operator, never sent. */
  origin: LeaseOrigin;
}

export interface LeaseOrigin {
  /** Set when several files were read (a Kea lease-file set). */
  file?: string;
  line: number;
}

/** Something in the file that was skipped, with the line an operator should look at. */
export interface LeaseFileProblem extends LeaseOrigin {
  reason: string;
  /**
   * Set when the skipped thing was a lease entry (a block, a row): it counts as an entry read.
   * `ip` is set when its address could be read: it is then that address's latest entry, and
   * nothing older is posted for the address (a stale record never stands in for a newer one).
   */
  entry?: { ip?: string };
}

/**
 * Where a parser puts what it reads. Parsers are pure: lines in, calls here out;
 * what to keep (the last record per address) is the sink's business.
 */
export interface LeaseSink {
  record(record: LeaseRecord): void;
  problem(problem: LeaseFileProblem): void;
  /**
   * An entry that is well formed but says nothing about an owner (a prefix delegation, a
   * free lease without a MAC). When it names an address it is still that address's latest
   * entry: whatever an earlier entry said about the address no longer holds.
   */
  ignore(reason: string, ip?: string): void;
}

/** The longest hostname the ledger keeps (a DNS name's limit); a longer one is left out rather than costing the lease. */
export const MAX_HOSTNAME_LENGTH = 253;

/** The body of one record as the endpoint takes it: exactly its fields, nothing local. */
export const toObservation = (record: LeaseRecord) => ({
  ip: record.ip,
  mac: record.mac,
  state: record.state,
  ...(record.starts !== undefined ? { starts: record.starts } : {}),
  ...(record.ends !== undefined ? { ends: record.ends } : {}),
  ...(record.hostname !== undefined && record.hostname.length <= MAX_HOSTNAME_LENGTH ? { hostname: record.hostname } : {}),
});

export type LeaseObservation = ReturnType<typeof toObservation>;

export const describeOrigin = (origin: LeaseOrigin): string => (origin.file ? `${origin.file}:${origin.line}` : `line ${origin.line}`);
