import { bytesFromHexList, macFromBytes, normalizeMac, parseIp, unusableMacReason } from './addresses';
import { KEA_V6_WITHOUT_MAC, keaV6DuidMac, keaV6LeaseType } from './kea-v6-row';
import { NotALeaseFile } from './not-a-lease-file';
import { quoteText } from './quote-text';
import { LatestLeases, type LeaseFileReading } from './latest-leases';
import type { LeaseRecord, LeaseSink, LeaseState } from './lease-record';

/**
 * Kea's lease states (Lease::STATE_*): 0 default (in use), 1 declined (the client found the
 * address taken: ISC calls that abandoned), 2 expired-reclaimed, 3 released, 4 registered
 * (a client-registered address, in use).
 */
const KEA_STATES: Record<string, LeaseState> = { '0': 'active', '1': 'abandoned', '2': 'expired', '3': 'released', '4': 'active' };
/** Kea's "infinite" valid lifetime: such a lease never ends. */
const INFINITE_LIFETIME = 0xffffffff;
/** The last second toISOString can spell (9999-12-31T23:59:59Z). */
const LAST_EPOCH_SECOND = 253_402_300_799;

/**
 * Kea's CSV escaping (util/csv_file.cc): a comma, and the `&` that starts an escape, are
 * written as `&#x` and two hex digits; a tag not followed by two hex digits is literal text.
 */
export const unescapeKeaText = (text: string): string => {
  if (!text.includes('&#x')) return text;
  const bytes: number[] = [];
  let i = 0;
  while (i < text.length) {
    const escape = text.startsWith('&#x', i) ? /^[0-9A-Fa-f]{2}/.exec(text.slice(i + 3, i + 5)) : null;
    if (escape) {
      bytes.push(parseInt(escape[0], 16));
      i += 5;
    } else {
      const char = String.fromCodePoint(text.codePointAt(i) ?? 0);
      bytes.push(...Buffer.from(char, 'utf8'));
      i += char.length;
    }
  }
  return Buffer.from(bytes).toString('utf8');
};

interface Header {
  family: 4 | 6;
  width: number;
  column: Record<string, number>;
}

const REQUIRED = { 4: ['address', 'hwaddr', 'valid_lifetime', 'expire'], 6: ['address', 'duid', 'valid_lifetime', 'expire'] } as const;

const readHeader = (line: string): Header | string => {
  const names = line.split(',').map((name) => name.trim());
  if (!names.includes('address')) return `its first line is no Kea lease-file header (no 'address' column): '${quoteText(line)}'`;
  const family = names.includes('duid') ? 6 : 4;
  const missing = REQUIRED[family].filter((name) => !names.includes(name));
  if (missing.length > 0) return `its header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  return { family, width: names.length, column: Object.fromEntries(names.map((name, index) => [name, index])) };
};

/** The family of a Kea lease file from its header line (a `duid` column: DHCPv6), or null when it is no Kea header. */
export const keaLeaseFileFamily = (headerLine: string): 4 | 6 | null => {
  const header = readHeader(headerLine);
  return typeof header === 'string' ? null : header.family;
};

/**
 * This many rows in a row that are no lease rows (no address where the header puts it)
 * mean the rest of the file is not a lease file either: stop, as for dhcpd.leases.
 */
export const MAX_UNRECOGNISED_ROWS_IN_A_ROW = 1_000;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Kea's memfile lease files (kea-leases4.csv, kea-leases6.csv), streamed one line at a time
 * and possibly several files in a row (see keaLeaseFileSet). Columns are found by their
 * header name, so files from older and newer Kea versions (fewer or more columns) read alike.
 */
export class KeaLeaseParser {
  private header: Header | null = null;
  private file: string | undefined;
  private line = 0;
  private unrecognisedInARow = 0;

  constructor(private readonly sink: LeaseSink) {}

  startFile(name?: string): void {
    this.file = name;
    this.header = null;
    this.line = 0;
    this.unrecognisedInARow = 0;
  }

  /** Throws NotALeaseFile for a file without a Kea header, or with a long run of rows that are no lease rows. */
  pushLine(raw: string): void {
    const line = ++this.line;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    if (!this.header) {
      // Kea itself refuses a lease file without its header; so does the import, rather than skip garbage row by row.
      const header = readHeader(text);
      if (typeof header === 'string') this.notALeaseFile(`${header}; stopped reading at line ${line}`);
      this.header = header;
      return;
    }
    const fields = text.split(',');
    const reason = this.row(fields, this.header, line);
    const anyAddress = parseIp(fields[this.header.column.address] ?? '');
    this.unrecognisedInARow = anyAddress ? 0 : this.unrecognisedInARow + 1;
    if (this.unrecognisedInARow >= MAX_UNRECOGNISED_ROWS_IN_A_ROW) {
      const run = this.unrecognisedInARow;
      this.notALeaseFile(`lines ${line - run + 1}-${line} are no lease rows (${run} in a row); stopped reading at line ${line}`);
    }
    if (!reason) return;
    // A row that cannot be used is still its address's latest entry: named, and nothing older is posted for it.
    const ip = fields.length === this.header.width ? anyAddress : null;
    const address = ip && ip.family === this.header.family ? ip.ip : undefined;
    this.problem(line, `${address ? `${address}: ` : ''}${reason}; row skipped`, { ...(address ? { ip: address } : {}) });
  }

  endFile(): void {
    this.header = null;
  }

  private notALeaseFile(why: string): never {
    throw new NotALeaseFile(`${this.file !== undefined ? this.file : 'this'} is not a Kea lease file: ${why}`);
  }

  private problem(line: number, reason: string, entry?: { ip?: string }): void {
    this.sink.problem({ ...(this.file !== undefined ? { file: this.file } : {}), line, reason, ...(entry ? { entry } : {}) });
  }

  /** Reads one row into the sink; returns why not when it cannot. */
  private row(fields: string[], header: Header, line: number): string | undefined {
    if (fields.length !== header.width) return `${fields.length} fields where the header has ${header.width}`;
    const field = (name: string): string | undefined => (name in header.column ? fields[header.column[name]] : undefined);
    const ip = parseIp(field('address') ?? '');
    if (!ip || ip.family !== header.family) return `address '${quoteText(field('address') ?? '')}' is not an IPv${header.family} address`;
    const validLifetime = field('valid_lifetime')!;
    const expire = field('expire')!;
    if (!/^\d{1,10}$/.test(validLifetime) || Number(validLifetime) > INFINITE_LIFETIME)
      return `valid_lifetime '${quoteText(validLifetime)}' is not a number of seconds`;
    if (!/^\d{1,12}$/.test(expire) || Number(expire) > LAST_EPOCH_SECOND) return `expire '${quoteText(expire)}' is not an epoch time`;
    const stateCode = field('state') || '0';
    if (!(stateCode in KEA_STATES)) return `state '${quoteText(stateCode)}' is not a Kea lease state (0-4)`;
    const type = header.family === 6 ? keaV6LeaseType(field('lease_type')) : 'address';
    if (typeof type === 'object' && 'error' in type) return type.error;
    if (typeof type === 'object') {
      this.sink.ignore(type.ignore, type.namesAddress ? ip.ip : undefined);
      return undefined;
    }
    const valid = Number(validLifetime);
    // Kea appends a row with valid_lifetime 0 when it deletes a lease: the address is no longer in use.
    const state = valid === 0 ? 'released' : KEA_STATES[stateCode];
    const found = this.mac(field, header);
    if (typeof found === 'object') return found.error;
    const unusable = found === undefined ? null : unusableMacReason(found);
    const mac = unusable ? undefined : found;
    if (mac === undefined) {
      // A DHCPv4 lease always has a hardware address; a DHCPv6 client may have none Kea can tell.
      if (state === 'active' && (unusable || header.family === 4)) return `the lease is active but has ${unusable ?? 'no hardware address'}`;
      this.sink.ignore(unusable ? `${state} lease with ${unusable}` : state === 'active' ? KEA_V6_WITHOUT_MAC : `${state} lease without a MAC address`, ip.ip);
      return undefined;
    }
    const record: LeaseRecord = { ip: ip.ip, mac, state, origin: { ...(this.file !== undefined ? { file: this.file } : {}), line } };
    const seconds = Number(expire);
    if (valid > 0 && seconds >= valid) record.starts = iso(seconds - valid);
    record.ends = valid === INFINITE_LIFETIME ? null : iso(seconds);
    const hostname = unescapeKeaText(field('hostname') ?? '');
    if (hostname !== '') record.hostname = hostname;
    this.sink.record(record);
    return undefined;
  }

  /**
   * The hwaddr column; for DHCPv4 rows without one, a client id of hardware type 1
   * (Ethernet: the type byte, then the MAC, RFC 2132 §9.14); for DHCPv6 rows, the MAC
   * inside a link-layer DUID.
   */
  private mac(field: (name: string) => string | undefined, header: Header): string | undefined | { error: string } {
    const hwaddr = field('hwaddr') ?? '';
    if (hwaddr !== '') return normalizeMac(hwaddr) ?? { error: `hwaddr '${quoteText(hwaddr)}' is not a six-octet MAC address` };
    if (header.family === 6) return keaV6DuidMac(field('duid') ?? '');
    const clientId = bytesFromHexList(field('client_id') ?? '');
    return clientId && clientId.length === 7 && clientId[0] === 1 ? (macFromBytes(clientId.subarray(1)) ?? undefined) : undefined;
  }
}

/** A whole Kea CSV text at once (tests, small files). */
export const parseKeaLeases = (text: string): LeaseFileReading => {
  const latest = new LatestLeases();
  const parser = new KeaLeaseParser(latest);
  parser.startFile();
  for (const line of text.split('\n')) parser.pushLine(line);
  parser.endFile();
  return latest.reading();
};
