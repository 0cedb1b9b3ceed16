import type { LeaseState } from '../lease-record';

/**
 * Writes lease entries the way the DHCP servers do (ISC server/db.c write_lease/write_ia,
 * Kea CSVLeaseFile4/6), optionally broken in one of the ways real files break, for
 * tests and for the generated files of thousands of records.
 */
export interface LeaseSpec {
  ip: string;
  /** Absent: a lease with no hardware address (an unused free lease, a declined Kea lease). */
  mac?: string;
  state: LeaseState;
  /** Epoch seconds. */
  starts?: number;
  /** Epoch seconds; null for a lease that never ends. */
  ends?: number | null;
  hostname?: string;
}

// A block without a binding state is no malformation: older dhcpd wrote them (active until `ends`).
export const ISC_MALFORMATIONS = ['bad-ip', 'bad-mac', 'bad-date', 'unknown-state', 'truncated', 'unterminated-string', 'missing-semicolon'] as const;
export type IscMalformation = (typeof ISC_MALFORMATIONS)[number];
/** The ways an ia-na block breaks (it has no hardware statement or hostname string: a non-Ethernet DUID stands for the bad MAC). */
export const ISC_IA_MALFORMATIONS = [
  'bad-ip',
  'bad-mac',
  'bad-date',
  'unknown-state',
  'truncated',
  'missing-semicolon',
] as const satisfies readonly IscMalformation[];
export const KEA_MALFORMATIONS = ['field-count', 'bad-address', 'bad-expire', 'bad-state', 'bad-hwaddr'] as const;
export type KeaMalformation = (typeof KEA_MALFORMATIONS)[number];

const pad = (n: number) => String(n).padStart(2, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `<weekday> YYYY/MM/DD HH:MM:SS;` (db-time-format default) or `epoch N; # <local time>` (local). */
export const iscDate = (seconds: number | null, style: 'utc' | 'epoch'): string => {
  if (seconds === null) return 'never;';
  const d = new Date(seconds * 1000);
  if (style === 'epoch') {
    return `epoch ${seconds}; # ${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
  }
  return `${d.getUTCDay()} ${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())};`;
};

/** dhcpd's quotify_buf: printable ASCII as is, `"` and `\` backslashed, everything else as `\ooo`. */
export const iscQuote = (bytes: Uint8Array): string =>
  `"${Array.from(bytes, (b) => (b === 0x22 || b === 0x5c ? `\\${String.fromCharCode(b)}` : b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\${b.toString(8).padStart(3, '0')}`)).join('')}"`;

const macBytes = (mac: string) => Uint8Array.from(mac.split(':').map((o) => parseInt(o, 16)));

export interface IscLeaseOptions {
  dates?: 'utc' | 'epoch';
  malformed?: IscMalformation;
  /** uid, set, on-blocks and other statements the parser must step over. */
  extras?: boolean;
}

export const renderIscLease = (spec: LeaseSpec, options: IscLeaseOptions = {}): string[] => {
  const style = options.dates ?? 'utc';
  const bad = options.malformed;
  const lines = [`lease ${bad === 'bad-ip' ? '10.0.0.999' : spec.ip} {`];
  if (spec.starts !== undefined) lines.push(`  starts ${iscDate(spec.starts, style)}`);
  if (spec.ends !== undefined) lines.push(`  ends ${bad === 'bad-date' ? '3 2024/13/45 25:00:00;' : iscDate(spec.ends, style)}`);
  if (spec.starts !== undefined && options.extras) lines.push(`  cltt ${iscDate(spec.starts, style)}`);
  if (bad === 'unknown-state') lines.push('  binding state dormant;');
  else if (bad === 'missing-semicolon') lines.push(`  binding state ${spec.state}`);
  else lines.push(`  binding state ${spec.state};`);
  if (options.extras) lines.push(`  next binding state ${spec.state === 'active' ? 'free' : spec.state};`, '  rewind binding state free;');
  if (spec.mac) {
    lines.push(`  hardware ethernet ${bad === 'bad-mac' ? spec.mac.replace(/^../, 'zz') : spec.mac};`);
    if (options.extras) lines.push(`  uid ${iscQuote(Uint8Array.from([1, ...macBytes(spec.mac)]))};`);
  }
  if (options.extras) lines.push('  set vendor-class-identifier = "MSFT 5.0";');
  if (spec.hostname !== undefined)
    lines.push(bad === 'unterminated-string' ? `  client-hostname "${spec.hostname};` : `  client-hostname ${iscQuote(Buffer.from(spec.hostname))};`);
  if (options.extras)
    lines.push('  on expiry or release {', '    set ddns-rev-name = "5.0.0.10.in-addr.arpa.";', '    on commit { execute ("/bin/true"); }', '  }');
  if (bad !== 'truncated') lines.push('}');
  return lines;
};

/** DUID-LL (type 3, Ethernet) of a MAC, after a 4-byte IAID: what dhcpd -6 names an IA by. */
export const iaidDuid = (iaid: number, mac: string): Uint8Array =>
  Uint8Array.from([(iaid >>> 24) & 255, (iaid >>> 16) & 255, (iaid >>> 8) & 255, iaid & 255, 0, 3, 0, 1, ...macBytes(mac)]);

/** DUID-EN (type 2): an enterprise number and an opaque id, no MAC in it. */
const ENTERPRISE_DUID = [0, 0, 0, 1, 0, 2, 0, 0, 0x09, 0xbf, 1, 2, 3, 4];

export const renderIscIaNa = (spec: LeaseSpec, options: IscLeaseOptions & { iaid?: number } = {}): string[] => {
  const style = options.dates ?? 'utc';
  const bad = options.malformed;
  const id = bad === 'bad-mac' ? Uint8Array.from(ENTERPRISE_DUID) : iaidDuid(options.iaid ?? 1, spec.mac!);
  const lines = [`ia-na ${iscQuote(id)} {`];
  if (spec.starts !== undefined) lines.push(`  cltt ${iscDate(spec.starts, style)}`);
  lines.push(`  iaaddr ${bad === 'bad-ip' ? '2001:db8::zz' : spec.ip} {`);
  lines.push(`    binding state ${bad === 'unknown-state' ? 'dormant' : spec.state}${bad === 'missing-semicolon' ? '' : ';'}`);
  lines.push('    preferred-life 375;', '    max-life 600;');
  if (spec.ends !== undefined) lines.push(`    ends ${bad === 'bad-date' ? '3 2024/13/45 25:00:00;' : iscDate(spec.ends, style)}`);
  lines.push('  }');
  if (bad !== 'truncated') lines.push('}');
  return lines;
};

export const ISC_PREAMBLE = [
  '# The format of this file is documented in the dhcpd.leases(5) manual page.',
  '# This lease file was written by isc-dhcp-4.4.3-P1',
  '',
  '# authoring-byte-order entry is generated, DO NOT DELETE',
  'authoring-byte-order little-endian;',
  '',
  'server-duid "\\000\\001\\000\\001%>\\347\\000\\000\\026>\\336\\233\\260";',
  '',
  'failover peer "dhcp-failover" state {',
  '  my state normal at 4 2024/05/02 08:00:00;',
  '  partner state normal at 4 2024/05/02 08:00:01;',
  '}',
  '',
];

export const KEA_V4_HEADER = 'address,hwaddr,client_id,valid_lifetime,expire,subnet_id,fqdn_fwd,fqdn_rev,hostname,state,user_context,pool_id';
export const KEA_V6_HEADER =
  'address,duid,valid_lifetime,expire,subnet_id,pref_lifetime,lease_type,iaid,prefix_len,fqdn_fwd,fqdn_rev,hostname,hwaddr,state,user_context,hwtype,hwaddr_source,pool_id';

/** Kea's CSVRow::escapeCharacters for a comma-escaped field: `,` and `&` as `&#x` + two hex digits. */
export const keaEscape = (text: string): string => text.replace(/[,&]/g, (c) => `&#x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

const KEA_STATE_CODES: Record<LeaseState, string> = { active: '0', abandoned: '1', expired: '2', released: '3', free: '2', backup: '2' };

export interface KeaRowOptions {
  malformed?: KeaMalformation;
  /** Write the row Kea appends when it deletes a lease (valid_lifetime 0). */
  deleted?: boolean;
  lifetime?: number;
}

/**
 * One Kea v4 row. Kea writes `expire` = cltt + valid_lifetime, so `starts` is the cltt and
 * `ends` is ignored; `state` maps back through Kea's codes (free and backup have none:
 * written as expired-reclaimed).
 */
export const renderKeaV4Row = (spec: LeaseSpec, options: KeaRowOptions = {}): string => {
  const bad = options.malformed;
  const lifetime = options.deleted ? 0 : (options.lifetime ?? 3600);
  const expire = (spec.starts ?? 1_714_550_400) + lifetime;
  const fields = [
    bad === 'bad-address' ? '10.0.0.999' : spec.ip,
    bad === 'bad-hwaddr' ? 'zz:00' : (spec.mac ?? ''),
    spec.mac ? `01:${spec.mac}` : '',
    String(lifetime),
    bad === 'bad-expire' ? 'soon' : String(expire),
    '1',
    '0',
    '0',
    keaEscape(spec.hostname ?? ''),
    bad === 'bad-state' ? '9' : KEA_STATE_CODES[spec.state],
    keaEscape('{ "ISC": { "client-classes": [ "ALL", "KNOWN" ] } }'),
    '0',
  ];
  if (bad === 'field-count') fields.pop();
  return fields.join(',');
};

export const renderKeaV6Row = (spec: LeaseSpec, options: KeaRowOptions & { withHwaddr?: boolean; prefixDelegation?: boolean } = {}): string => {
  const lifetime = options.deleted ? 0 : (options.lifetime ?? 3600);
  const expire = (spec.starts ?? 1_714_550_400) + lifetime;
  const duid = spec.mac ? `00:03:00:01:${spec.mac}` : '00:02:00:00:09:bf:01:02:03:04';
  return [
    options.malformed === 'bad-address' ? '2001:db8::zz' : spec.ip,
    duid,
    String(lifetime),
    options.malformed === 'bad-expire' ? 'soon' : String(expire),
    '1',
    String(Math.floor(lifetime / 2)),
    options.prefixDelegation ? '2' : '0',
    '1',
    options.prefixDelegation ? '56' : '128',
    '0',
    '0',
    keaEscape(spec.hostname ?? ''),
    options.malformed === 'bad-hwaddr' ? 'zz:00' : options.withHwaddr && spec.mac ? spec.mac : '',
    options.malformed === 'bad-state' ? '9' : KEA_STATE_CODES[spec.state],
    '',
    options.withHwaddr && spec.mac ? '1' : '0',
    options.withHwaddr && spec.mac ? '2' : '0',
    '0',
  ]
    .slice(0, options.malformed === 'field-count' ? -1 : undefined)
    .join(',');
};
