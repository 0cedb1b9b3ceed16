import { writeFileSync } from 'node:fs';
import type { LeaseState } from '../lease-record';
import {
  ISC_IA_MALFORMATIONS,
  ISC_MALFORMATIONS,
  ISC_PREAMBLE,
  KEA_MALFORMATIONS,
  KEA_V4_HEADER,
  KEA_V6_HEADER,
  renderIscIaNa,
  renderIscLease,
  renderKeaV4Row,
  renderKeaV6Row,
  type IscMalformation,
  type KeaMalformation,
  type LeaseSpec,
} from './lease-file-writers';

/**
 * Realistic lease files of any size, with what a correct reader must make of them:
 * addresses renewed and released several times (superseded entries), unused free leases
 * without a MAC, prefix delegations, and a share of broken entries, each of which must
 * cost exactly one reported problem and nothing else.
 */
export interface GenerateOptions {
  /** Distinct addresses with a lease entry. */
  leases: number;
  seed?: number;
  /** Share of addresses written once before their final entry. */
  supersededRatio?: number;
  /** Broken entries, as a share of `leases`. */
  malformedRatio?: number;
  /** ISC: share of addresses written as DHCPv6 ia-na blocks. */
  ipv6Ratio?: number;
  /** Written last, after everything generated, so they are these addresses' final entries. */
  extra?: LeaseSpec[];
  /** Epoch seconds the generated leases are around. */
  now?: number;
}

export interface GeneratedLeaseFiles {
  /** Every file written, in load order. */
  files: string[];
  /** The record each address must end up with. */
  expected: Map<string, { mac: string; state: LeaseState; hostname?: string }>;
  /** Every entry written: superseded, ignored and broken ones included (a reader counts each block or row it reads). */
  entries: number;
  superseded: number;
  /** Broken entries written: each must be reported once. */
  malformed: number;
  /** Entries a reader must count as ignored (no MAC and not active, prefix delegations). */
  ignored: number;
}

/** One entry of a generated file: a lease, a broken lease, or a prefix delegation. */
export type GeneratedEntry =
  | { kind: 'lease'; spec: LeaseSpec; v6?: boolean; deleted?: boolean }
  | { kind: 'broken'; spec: LeaseSpec; v6?: boolean; malformation: IscMalformation | KeaMalformation }
  | { kind: 'prefix'; spec: LeaseSpec };

/** mulberry32: small, seeded, good enough to make files that differ but repeat. */
export const seededRandom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

const ipv4 = (i: number) => `10.${20 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
const ipv6 = (i: number) => `2001:db8:20::${(i + 1).toString(16)}`;
const mac = (i: number, generation: number) =>
  [
    '52',
    '54',
    (generation & 255).toString(16).padStart(2, '0'),
    ((i >> 16) & 255).toString(16).padStart(2, '0'),
    ((i >> 8) & 255).toString(16).padStart(2, '0'),
    (i & 255).toString(16).padStart(2, '0'),
  ].join(':');

/** Broken entries whose address can still be read: all but a bad address, a wrong field count, and a cut-short DHCPv6 IA (its header names no address). */
const namesItsAddress = (entry: Extract<GeneratedEntry, { kind: 'broken' }>): boolean =>
  !['bad-ip', 'bad-address', 'field-count'].includes(entry.malformation) && !(entry.malformation === 'truncated' && entry.spec.ip.includes(':'));

/** What a correct reader keeps: the last well-formed entry per address; an entry without a MAC that is not active clears it. */
export const expectation = (entries: GeneratedEntry[]): Omit<GeneratedLeaseFiles, 'files'> => {
  const expected: GeneratedLeaseFiles['expected'] = new Map();
  const counts = { entries: 0, superseded: 0, malformed: 0, ignored: 0 };
  for (const entry of entries) {
    counts.entries++;
    if (entry.kind === 'broken') {
      counts.malformed++;
      // An unusable entry that names its address is that address's latest: nothing older stands in for it.
      if (namesItsAddress(entry) && expected.delete(entry.spec.ip)) counts.superseded++;
    } else if (entry.kind === 'prefix') counts.ignored++;
    else {
      const { ip, mac: hw, state, hostname } = entry.spec;
      const finalState: LeaseState = entry.deleted ? 'released' : state;
      if (!hw) {
        if (finalState === 'active') counts.malformed++;
        else counts.ignored++;
        if (expected.delete(ip)) counts.superseded++;
        continue;
      }
      if (expected.delete(ip)) counts.superseded++;
      expected.set(ip, { mac: hw, state: finalState, ...(hostname ? { hostname } : {}) });
    }
  }
  return { expected, ...counts };
};

const plan = (options: GenerateOptions, format: 'isc' | 'kea', family: 4 | 6): GeneratedEntry[] => {
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const now = options.now ?? 1_714_550_400;
  const states: LeaseState[] =
    format === 'isc'
      ? ['active', 'active', 'active', 'free', 'expired', 'released', 'released', 'abandoned', 'backup']
      : ['active', 'active', 'active', 'expired', 'released', 'released', 'abandoned'];
  const specFor = (i: number, generation: number, state: LeaseState, named = false): LeaseSpec & { v6: boolean } => {
    // Whether an address is IPv6 depends on the address alone, so its every entry agrees.
    const v6 = format === 'isc' ? ((i * 2_654_435_761) % 1_000) / 1_000 < (options.ipv6Ratio ?? 0) : family === 6;
    const starts = now - Math.floor(random() * 86_400);
    const oddName = format === 'kea' ? `db-${i}, rack & row` : `lab "${i}" ü`;
    return {
      v6,
      ip: v6 ? ipv6(i) : ipv4(i),
      mac: mac(i, generation),
      state,
      starts,
      ends: format === 'isc' && random() < 0.02 ? null : starts + 3_600 + Math.floor(random() * 40_000),
      // dhcpd -6 records no client hostname in an ia-na.
      ...((named || random() < 0.7) && !(format === 'isc' && v6) ? { hostname: random() < 0.1 ? oddName : `host-${i}` } : {}),
    };
  };
  const earlier: GeneratedEntry[] = [];
  const finals: GeneratedEntry[] = [];
  for (let i = 0; i < options.leases; i++) {
    if (random() < (options.supersededRatio ?? 0.2)) earlier.push({ kind: 'lease', ...withV6(specFor(i, 1, 'active')) });
    const spec = specFor(i, 2, pick(states));
    // An unused free lease in dhcpd carries no hardware address.
    if (format === 'isc' && spec.state === 'free' && !spec.v6 && random() < 0.3) delete spec.mac;
    finals.push({ kind: 'lease', ...withV6(spec), ...(format === 'kea' && random() < 0.03 ? { deleted: true } : {}) });
  }
  const broken: GeneratedEntry[] = [];
  for (let k = 0; k < Math.round(options.leases * (options.malformedRatio ?? 0.01)); k++) {
    const i = Math.floor(random() * options.leases);
    const spec = specFor(i, 3, 'active', true);
    const malformations = format === 'kea' ? KEA_MALFORMATIONS : spec.v6 ? ISC_IA_MALFORMATIONS : ISC_MALFORMATIONS;
    broken.push({ kind: 'broken', ...withV6(spec), malformation: pick(malformations) });
  }
  if (format === 'kea' && family === 6)
    for (let k = 0; k < Math.ceil(options.leases / 50); k++)
      broken.push({ kind: 'prefix', spec: { ...specFor(options.leases + k, 1, 'active'), ip: `2001:db8:ff:${k.toString(16)}00::` } });
  // Earlier entries first (interleaved with broken ones), then the finals in a shuffled order, then the caller's own.
  const mixed = shuffle([...earlier, ...broken], random);
  return [...mixed, ...shuffle(finals, random), ...(options.extra ?? []).map((spec) => ({ kind: 'lease' as const, spec, v6: spec.ip.includes(':') }))];
};

const withV6 = (spec: LeaseSpec & { v6: boolean }) => {
  const { v6, ...rest } = spec;
  return { spec: rest, v6 };
};

const shuffle = <T>(items: T[], random: () => number): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
};

/** A dhcpd.leases file (DHCPv4 blocks, and ia-na blocks for `ipv6Ratio` of the addresses). */
export const generateIscLeaseFile = (path: string, options: GenerateOptions): GeneratedLeaseFiles => {
  const entries = plan(options, 'isc', 4);
  const random = seededRandom((options.seed ?? 1) + 7);
  const lines = [...ISC_PREAMBLE];
  for (const entry of entries) {
    if (entry.kind === 'prefix') continue;
    const malformed = entry.kind === 'broken' ? (entry.malformation as IscMalformation) : undefined;
    const style = random() < 0.3 ? ('epoch' as const) : ('utc' as const);
    const v6 = entry.v6 && entry.spec.mac !== undefined;
    lines.push(
      ...(v6
        ? renderIscIaNa(entry.spec, { dates: style, malformed, iaid: 1 })
        : renderIscLease(entry.spec, { dates: style, malformed, extras: random() < 0.5 })),
    );
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { files: [path], ...expectation(entries) };
};

/**
 * A Kea memfile lease-file set: with `split`, the entries go to `<path>.2`, `<path>.1` and
 * `<path>` in that order (what an interrupted LFC leaves behind), each with its header.
 */
export const generateKeaLeaseFiles = (path: string, options: GenerateOptions & { family?: 4 | 6; split?: boolean }): GeneratedLeaseFiles => {
  const family = options.family ?? 4;
  const entries = plan(options, 'kea', family);
  const rows = entries.map((entry) => {
    const malformed = entry.kind === 'broken' ? (entry.malformation as KeaMalformation) : undefined;
    const deleted = entry.kind === 'lease' && entry.deleted;
    if (family === 4) return renderKeaV4Row(entry.spec, { malformed, deleted });
    return renderKeaV6Row(entry.spec, { malformed, deleted, prefixDelegation: entry.kind === 'prefix', withHwaddr: entry.spec.ip.endsWith('0') });
  });
  const header = family === 4 ? KEA_V4_HEADER : KEA_V6_HEADER;
  const files = options.split ? [`${path}.2`, `${path}.1`, path] : [path];
  const per = Math.ceil(rows.length / files.length);
  files.forEach((file, index) => writeFileSync(file, `${[header, ...rows.slice(index * per, (index + 1) * per)].join('\n')}\n`));
  return { files, ...expectation(entries) };
};
