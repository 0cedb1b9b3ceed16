import { bytesFromHexList, duidType, macFromDuid, normalizeMac, parseIp, unusableMacReason } from './addresses';
import { IscBlockReader, TOP_LEVEL_KEYWORDS, wordsText, type IscBlock, type IscStatement } from './isc-dhcpd-blocks';
import { NotALeaseFile } from './not-a-lease-file';
import type { IscToken } from './isc-dhcpd-lexer';
import { bindingState, parseIscDate } from './isc-dhcpd-values';
import { LatestLeases, type LeaseFileReading } from './latest-leases';
import type { LeaseRecord, LeaseSink, LeaseState } from './lease-record';

/** Top-level declarations a lease file may hold that are not leases (OMAPI objects, failover state). */
const NOT_LEASES = new Set(['failover', 'host', 'group', 'subgroup', 'class', 'subclass']);
const QUIET_STATEMENTS = new Set(['server-duid', 'authoring-byte-order']);

interface LeaseFields {
  state?: LeaseState;
  /** No `binding state` line: older dhcpd versions and some peers' fixtures; the state follows from `ends`. */
  noBindingState?: boolean;
  mac?: string;
  /** Why a hardware statement gave no usable MAC. */
  unusableMac?: string;
  starts?: string;
  ends?: string | null;
  hostname?: string;
}

interface FieldError {
  line: number;
  reason: string;
}

/** The fields of one lease (or iaaddr) body that the ledger needs; everything else (uid, set, on, cltt...) is ignored. */
const readFields = (statements: IscStatement[], errors: FieldError[]): LeaseFields => {
  const fields: LeaseFields = {};
  let sawBindingState = false;
  for (const { words, line } of statements) {
    const [keyword, ...rest] = words.map((w) => w.text);
    const fail = (reason: string) => errors.push({ line, reason });
    switch (keyword) {
      case 'starts':
      case 'ends': {
        const date = parseIscDate(words.slice(1));
        if (!date.ok) fail(`${keyword}: ${date.reason}`);
        else if (keyword === 'starts') fields.starts = date.value ?? undefined;
        else fields.ends = date.value;
        break;
      }
      case 'binding': {
        sawBindingState = true;
        const state = rest[0] === 'state' && rest.length === 2 ? bindingState(rest[1]) : undefined;
        if (!state) fail(`'${wordsText(words)}' is not a known binding state`);
        else fields.state = state;
        break;
      }
      case 'abandoned': // dhcpd 2 wrote this instead of a binding state
        sawBindingState = true;
        fields.state = 'abandoned';
        break;
      case 'hardware': {
        const mac = rest.length === 2 ? normalizeMac(rest[1]) : null;
        if (!mac) fail(`'${wordsText(words)}' is not 'hardware <type> <six octets>'`);
        else if (unusableMacReason(mac)) fields.unusableMac = unusableMacReason(mac)!;
        else fields.mac = mac;
        break;
      }
      case 'client-hostname':
        if (words.length === 2 && words[1].text !== '') fields.hostname = words[1].text;
        break;
      default: // next/rewind binding state, uid, cltt, tstp, set, option, billing...: not the ledger's business
    }
  }
  if (!sawBindingState) fields.noBindingState = true;
  return fields;
};

/**
 * ISC dhcpd's lease database (dhcpd.leases(5)), streamed one line at a time. Every
 * `lease <ip> { ... }` block (and every `iaaddr` of a DHCPv6 `ia-na`/`ia-ta`) becomes a
 * record; a block that cannot be read is reported with its line and why, and skipped.
 */
export class IscLeaseParser {
  private readonly blocks: IscBlockReader;
  private readonly now: string;
  /** Declarations read so far, and unrecognised lines: in all, and since the last declaration. */
  private declarations = 0;
  private unrecognised = 0;
  private unrecognisedInARow = 0;

  /** `now` decides the state of a block without a binding state (active until its `ends`); the parser itself reads no clock. */
  constructor(
    private readonly sink: LeaseSink,
    options: { now: string },
  ) {
    this.now = options.now;
    this.blocks = new IscBlockReader({
      block: (block) => this.declaration(block),
      statement: (statement) => this.topLevelStatement(statement),
      problem: (line, reason, block) => this.sink.problem({ line, reason, ...(block && isLeaseEntry(block) ? { entry: entryOf(block) } : {}) }),
      unrecognisedLine: (line) => this.unrecognisedLine(line),
    });
  }

  pushLine(line: string): void {
    this.blocks.pushLine(line);
  }

  /** Whether every declaration pushed so far is complete: a safe place to stop reading and resume later. */
  get atRest(): boolean {
    return this.blocks.atRest;
  }

  /**
   * A file that is not a lease file (an executable, random bytes, a text of garbage) is
   * not read to its end, line by skipped line: it stops after a bounded number of lines
   * that no lease file holds, before any declaration, or in a row anywhere.
   */
  private unrecognisedLine(line: number): void {
    this.unrecognised++;
    this.unrecognisedInARow++;
    if (this.declarations === 0 && this.unrecognised >= MAX_UNRECOGNISED_BEFORE_ANY) {
      throw new NotALeaseFile(
        `this is not a dhcpd.leases file: ${this.unrecognised} of its first ${line} lines are no lease file's, and none declares a lease; stopped reading at line ${line}`,
      );
    }
    if (this.unrecognisedInARow >= MAX_UNRECOGNISED_IN_A_ROW) {
      throw new NotALeaseFile(
        `lines ${line - this.unrecognisedInARow + 1}-${line} are no lease file's (${this.unrecognisedInARow} in a row); stopped reading at line ${line}`,
      );
    }
  }

  end(): void {
    this.blocks.end();
  }

  private topLevelStatement({ words, line }: IscStatement): void {
    if (words.length > 0 && TOP_LEVEL_KEYWORDS.has(words[0].text)) this.recognised();
    if (words.length === 0 || QUIET_STATEMENTS.has(words[0].text)) return;
    this.sink.problem({ line, reason: `unrecognised statement '${wordsText(words)}'; ignored` });
  }

  private recognised(): void {
    this.declarations++;
    this.unrecognisedInARow = 0;
  }

  private declaration(block: IscBlock): void {
    const keyword = block.header[0]?.text;
    if (TOP_LEVEL_KEYWORDS.has(keyword ?? '')) this.recognised();
    if (keyword === 'lease') this.lease(block);
    else if (keyword === 'ia-na' || keyword === 'ia-ta') this.identityAssociation(block);
    else if (keyword === 'ia-pd') block.blocks.forEach(() => this.sink.ignore('DHCPv6 prefix delegation (ia-pd)'));
    else if (!NOT_LEASES.has(keyword ?? '')) {
      this.sink.problem({ line: block.line, reason: `unrecognised declaration '${wordsText(block.header)}' skipped` });
    }
  }

  private lease(block: IscBlock): void {
    const [, address, ...extra] = block.header;
    const ip = address && extra.length === 0 ? parseIp(address.text) : null;
    if (!ip || ip.family !== 4) {
      this.sink.problem({ line: block.line, reason: `'${wordsText(block.header)}' does not name an IPv4 address; block skipped`, entry: {} });
      return;
    }
    this.emit(`lease ${ip.ip}`, ip.ip, block);
  }

  private identityAssociation(block: IscBlock): void {
    const [keyword, id] = block.header;
    const duid = block.header.length === 2 ? iaidDuidBytes(id)?.subarray(4) : undefined;
    if (!duid) {
      this.sink.problem({ line: block.line, reason: `'${wordsText(block.header)}' does not carry an IAID and DUID; block skipped`, entry: {} });
      return;
    }
    const found = macFromDuid(duid);
    const mac = found && !unusableMacReason(found) ? found : null;
    const noMac = `no MAC address: the client's DUID (type ${duidType(duid) ?? 'unknown'}) carries no Ethernet address`;
    for (const child of block.blocks) {
      if (child.header[0]?.text !== 'iaaddr') continue;
      const ip = child.header.length === 2 ? parseIp(child.header[1].text) : null;
      if (!ip || ip.family !== 6) {
        this.sink.problem({
          line: child.line,
          reason: `'${wordsText(child.header)}' in the ${keyword.text} block at line ${block.line} does not name an IPv6 address; skipped`,
          entry: {},
        });
        continue;
      }
      this.emit(`iaaddr ${ip.ip}`, ip.ip, child, mac ? { mac } : { missing: noMac });
    }
  }

  /**
   * One lease body to one record; `fromDuid` is where DHCPv6 leases get their MAC (they
   * have no hardware statement). A block that cannot be used is still the address's latest
   * entry: it is reported with its address, and nothing older is posted for the address.
   */
  private emit(what: string, ip: string, block: IscBlock, fromDuid?: { mac: string } | { missing: string }): void {
    const errors: FieldError[] = [];
    const fields = readFields(block.statements, errors);
    const entry = { ip };
    if (errors.length > 0) {
      const [first, ...more] = errors;
      const also = more.map((e) => `; also line ${e.line}: ${e.reason}`).join('');
      this.sink.problem({ line: first.line, reason: `${what} (block at line ${block.line}) skipped: ${first.reason}${also}`, entry });
      return;
    }
    const state = fields.state ?? this.stateFromEnds(fields.ends);
    const mac = fromDuid && 'mac' in fromDuid ? fromDuid.mac : fields.mac;
    if (!mac) {
      const why = fromDuid && 'missing' in fromDuid ? fromDuid.missing : fields.unusableMac ? fields.unusableMac : `no 'hardware' statement`;
      // An unused free lease without a MAC is normal; an active one the ledger cannot match is worth a line in the report.
      if (state === 'active') this.sink.problem({ line: block.line, reason: `${what} is active but has ${why}; skipped`, entry });
      else this.sink.ignore(fields.unusableMac ? `${state} lease with ${fields.unusableMac}` : `${state} lease without a MAC address`, ip);
      return;
    }
    const record: LeaseRecord = { ip, mac, state, origin: { line: block.line } };
    if (fields.starts !== undefined) record.starts = fields.starts;
    if (fields.ends !== undefined) record.ends = fields.ends;
    if (fields.hostname !== undefined) record.hostname = fields.hostname;
    this.sink.record(record);
  }

  /** Older dhcpd wrote no binding state: such a lease is active until its `ends`, then expired (as other lease-file readers take it). */
  private stateFromEnds(ends: string | null | undefined): LeaseState {
    return ends === undefined || ends === null || Date.parse(ends) > Date.parse(this.now) ? 'active' : 'expired';
  }
}

const isLeaseEntry = (block: IscBlock): boolean => ['lease', 'ia-na', 'ia-ta'].includes(block.header[0]?.text ?? '');

/** A broken `lease <ip>` block is still that address's latest entry; an IA names no single address. */
const entryOf = (block: IscBlock): { ip?: string } => {
  const ip = block.header[0]?.text === 'lease' && block.header.length === 2 ? parseIp(block.header[1].text) : null;
  return ip?.family === 4 ? { ip: ip.ip } : {};
};

/** Before any declaration, this many unrecognised lines mean the file is not a lease file. */
export const MAX_UNRECOGNISED_BEFORE_ANY = 20;
/** Anywhere, this many in a row mean the rest of the file is not lease file either. */
export const MAX_UNRECOGNISED_IN_A_ROW = 1_000;

/** The IAID (4 bytes) and DUID that name an IA: a quoted string with octal escapes, or a colon-separated hex list. */
const iaidDuidBytes = (token: IscToken | undefined): Uint8Array | null => {
  if (!token) return null;
  const bytes = token.kind === 'string' ? token.bytes : token.kind === 'word' ? bytesFromHexList(token.text) : null;
  return bytes && bytes.length > 4 ? bytes : null;
};

/** A whole dhcpd.leases text at once (tests, small files). */
export const parseIscLeases = (text: string, now = new Date().toISOString()): LeaseFileReading => {
  const latest = new LatestLeases();
  const parser = new IscLeaseParser(latest, { now });
  for (const line of text.split(/\r?\n/)) parser.pushLine(line);
  parser.end();
  return latest.reading();
};
