/**
 * The one rule both formats share, over generated histories: a lease file is an append
 * log, the last well-formed entry for an address is the one in force, and every broken
 * entry costs exactly one reported problem and nothing else.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseIscLeases } from './isc-dhcpd-parser';
import { parseKeaLeases } from './kea-csv-parser';
import type { LeaseFileReading } from './latest-leases';
import type { LeaseState } from './lease-record';
import { expectation, type GeneratedEntry } from './testing/lease-file-generator';
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
  type LeaseSpec,
} from './testing/lease-file-writers';

const v4 = fc.constantFrom('10.9.0.1', '10.9.0.2', '10.9.0.3', '10.9.0.4', '10.9.0.5');
const v6 = fc.constantFrom('2001:db8::1', '2001:db8::2', '2001:db8::a:3');
const macs = fc.constantFrom('52:54:00:00:00:01', '52:54:00:00:00:02', '52:54:00:00:00:03');
const hostnames = fc.option(fc.constantFrom('web-1', 'db, primary & co', 'lab "7" ü', 'a#b;c{d}'), { nil: undefined });
const times = fc.integer({ min: 1_600_000_000, max: 1_900_000_000 });

const spec = (ip: fc.Arbitrary<string>, states: LeaseState[]) =>
  fc.record({ ip, mac: macs, state: fc.constantFrom(...states), starts: times, ends: fc.option(times, { nil: null }), hostname: hostnames }).map((s) => {
    const { hostname, ...rest } = s;
    return (hostname === undefined ? rest : { ...rest, hostname }) as LeaseSpec;
  });

const compare = (reading: LeaseFileReading, entries: GeneratedEntry[]) => {
  const expected = expectation(entries);
  assert.deepEqual(
    new Map(reading.records.map((r) => [r.ip, { mac: r.mac, state: r.state, ...(r.hostname !== undefined ? { hostname: r.hostname } : {}) }])),
    expected.expected,
  );
  assert.equal(reading.problems.length, expected.malformed, JSON.stringify(reading.problems));
  assert.equal(reading.entries, expected.entries);
  assert.equal(reading.superseded, expected.superseded);
  assert.equal(
    Object.values(reading.ignored).reduce((a, b) => a + b, 0),
    expected.ignored,
  );
};

describe('lease files are append logs: the last well-formed entry wins, broken ones cost one problem each', () => {
  it('dhcpd.leases, DHCPv4 and DHCPv6 blocks, any dates, any breakage', () => {
    const states: LeaseState[] = ['active', 'free', 'expired', 'released', 'abandoned', 'backup'];
    const v4Entry = fc.record({
      spec: spec(v4, states),
      noMac: fc.boolean(),
      broken: fc.option(fc.constantFrom(...ISC_MALFORMATIONS), { nil: undefined, freq: 4 }),
      extras: fc.boolean(),
      epoch: fc.boolean(),
    });
    const v6Entry = fc.record({
      spec: spec(v6, ['active', 'expired', 'released', 'abandoned']),
      broken: fc.option(fc.constantFrom(...ISC_IA_MALFORMATIONS), { nil: undefined, freq: 4 }),
      epoch: fc.boolean(),
    });
    const entry = fc.oneof(
      { arbitrary: v4Entry.map((e) => ({ ...e, v6: false })), weight: 3 },
      { arbitrary: v6Entry.map((e) => ({ ...e, v6: true, noMac: false, extras: false })), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 25 }), (drawn) => {
        const entries: GeneratedEntry[] = [];
        const lines = [...ISC_PREAMBLE];
        for (const e of drawn) {
          const leaseSpec: LeaseSpec = { ...e.spec };
          if (e.v6) delete leaseSpec.hostname; // an ia-na has nowhere to say it
          // A free lease may come without a hardware address; a broken block always names one, so it is broken in one way only.
          if (e.noMac && !e.broken && leaseSpec.state !== 'active') delete leaseSpec.mac;
          if (e.broken === 'unterminated-string') leaseSpec.hostname ??= 'web-1';
          // An IA's "bad MAC" is a DUID without one, which is only a problem for an active lease.
          if (e.v6 && e.broken === 'bad-mac') leaseSpec.state = 'active';
          const options = { dates: e.epoch ? ('epoch' as const) : ('utc' as const), malformed: e.broken, extras: e.extras };
          lines.push(...(e.v6 ? renderIscIaNa(leaseSpec, options) : renderIscLease(leaseSpec, options)));
          entries.push(e.broken ? { kind: 'broken', spec: leaseSpec, malformation: e.broken } : { kind: 'lease', spec: leaseSpec, v6: e.v6 });
        }
        compare(parseIscLeases(lines.join('\n')), entries);
      }),
      { numRuns: 300 },
    );
  });

  it('Kea memfile CSV, v4 and v6, deletions (valid_lifetime 0), escaped text, any breakage', () => {
    for (const family of [4, 6] as const) {
      const entry = fc.record({
        spec: spec(family === 4 ? v4 : v6, ['active', 'expired', 'released', 'abandoned']),
        deleted: fc.boolean(),
        prefix: fc.boolean(),
        broken: fc.option(fc.constantFrom(...KEA_MALFORMATIONS), { nil: undefined, freq: 4 }),
      });
      fc.assert(
        fc.property(fc.array(entry, { maxLength: 25 }), (drawn) => {
          const entries: GeneratedEntry[] = [];
          const rows = [family === 4 ? KEA_V4_HEADER : KEA_V6_HEADER];
          for (const e of drawn) {
            const prefix = family === 6 && e.prefix && !e.broken;
            const spec = prefix ? { ...e.spec, ip: '2001:db8:ff::' } : e.spec;
            const options = { malformed: e.broken, deleted: e.deleted && !e.broken };
            rows.push(family === 4 ? renderKeaV4Row(spec, options) : renderKeaV6Row(spec, { ...options, prefixDelegation: prefix, withHwaddr: e.deleted }));
            entries.push(
              e.broken
                ? { kind: 'broken', spec, malformation: e.broken }
                : prefix
                  ? { kind: 'prefix', spec }
                  : { kind: 'lease', spec, deleted: options.deleted },
            );
          }
          compare(parseKeaLeases(rows.join('\n')), entries);
        }),
        { numRuns: 200 },
      );
    }
  });
});
