/**
 * Kea's DHCPv6 memfile rows (kea-leases6.csv) as Kea 2.2 writes them (CSVLeaseFile6): only
 * IA_NA addresses are device leases, the MAC comes from hwaddr or a link-layer DUID, a binding
 * without one is left out, not reported as broken; and no row, however hostile, crashes the
 * parser, while any row Kea could write reads back as what Kea meant.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseIp } from './addresses';
import { parseKeaLeases } from './kea-csv-parser';
import { KEA_V6_WITHOUT_MAC } from './kea-v6-row';
import { LEASE_STATES, type LeaseRecord } from './lease-record';
import { keaEscape } from './testing/lease-file-writers';

/** The header Kea 2.2 writes (no pool_id: that came with 2.5). */
const KEA_22_V6 =
  'address,duid,valid_lifetime,expire,subnet_id,pref_lifetime,lease_type,iaid,prefix_len,fqdn_fwd,fqdn_rev,hostname,hwaddr,state,user_context,hwtype,hwaddr_source';
const WIDTH = KEA_22_V6.split(',').length;

interface Row {
  address: string;
  duid: string;
  valid: number;
  expire: number;
  type: number;
  hostname: string;
  hwaddr: string;
  state: number;
}

/** One row in Kea's column order: the hostname escaped as CSVRow::writeAtEscaped does, hwtype/hwaddr_source as Kea 2.2 fills them. */
const render = (row: Row): string =>
  [
    row.address,
    row.duid,
    row.valid,
    row.expire,
    1,
    Math.floor(row.valid / 2),
    row.type,
    3_100_000_001,
    row.type === 2 ? 56 : 128,
    0,
    0,
    keaEscape(row.hostname),
    row.hwaddr,
    row.state,
    '',
    row.hwaddr ? 1 : 0,
    row.hwaddr ? 4 : 0,
  ].join(',');

const base: Row = {
  address: 'fd00:5eed::101',
  duid: '00:03:00:01:02:58:00:00:06:01',
  valid: 600,
  expire: 1_714_554_000,
  type: 0,
  hostname: '',
  hwaddr: '02:58:00:00:06:01',
  state: 0,
};
const file = (...rows: Partial<Row>[]) => parseKeaLeases([KEA_22_V6, ...rows.map((row) => render({ ...base, ...row }))].join('\n'));

describe('Kea 2.2 DHCPv6 memfile rows', () => {
  it('reads an IA_NA address: the MAC Kea recorded, start and end from expire and valid_lifetime, the hostname unescaped', () => {
    const reading = file({ hostname: 'juju-0-lxc-1, rack & row' });
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(
      reading.records.map(({ origin: _origin, ...record }) => record),
      [
        {
          ip: 'fd00:5eed::101',
          mac: '02:58:00:00:06:01',
          state: 'active',
          starts: '2024-05-01T08:50:00.000Z',
          ends: '2024-05-01T09:00:00.000Z',
          hostname: 'juju-0-lxc-1, rack & row',
        },
      ],
    );
  });

  it('takes hwaddr over the DUID, and the MAC of a link-layer DUID (LL or LLT) when Kea recorded none', () => {
    const reading = file(
      { address: 'fd00:5eed::1', hwaddr: '02:58:00:00:06:0a', duid: '00:03:00:01:02:58:00:00:06:0b' },
      { address: 'fd00:5eed::2', hwaddr: '', duid: '00:03:00:01:02:58:00:00:06:0c' },
      { address: 'fd00:5eed::3', hwaddr: '', duid: '00:01:00:01:2c:7e:3a:10:02:58:00:00:06:0d' },
    );
    assert.deepEqual(
      reading.records.map((record) => [record.ip, record.mac]),
      [
        ['fd00:5eed::1', '02:58:00:00:06:0a'],
        ['fd00:5eed::2', '02:58:00:00:06:0c'],
        ['fd00:5eed::3', '02:58:00:00:06:0d'],
      ],
    );
  });

  it('leaves out a delegated prefix and a temporary address; the temporary address still supersedes what was said of it', () => {
    const reading = file({ address: 'fd00:5eed::7' }, { address: 'fd00:5eed:0:100::', type: 2 }, { address: 'fd00:5eed::7', type: 1 });
    assert.deepEqual(reading.records, []);
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(reading.ignored, { 'DHCPv6 prefix delegation (IA_PD, lease_type 2)': 1, 'DHCPv6 temporary address (IA_TA, lease_type 1)': 1 });
    assert.equal(reading.superseded, 1);
  });

  it('leaves out a binding Kea knows no MAC for (a DUID-EN or DUID-UUID client): counted, not reported as a broken row', () => {
    const reading = file(
      { address: 'fd00:5eed::8' },
      { address: 'fd00:5eed::8', hwaddr: '', duid: '00:02:00:00:09:bf:01:02:03:04' },
      { address: 'fd00:5eed::9', hwaddr: '', duid: '00:04:8a:2c:3e:7b:1d:40:4a:0e:9b:5c:66:01:23:45:67:89' },
    );
    assert.deepEqual(reading.records, [], "the MAC-less binding is the address's latest entry: the older one is not posted");
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(reading.ignored, { [KEA_V6_WITHOUT_MAC]: 2 });
  });

  it('a declined lease (Kea empties its DUID to 00 and drops the hwaddr) clears the address without a problem', () => {
    const reading = file({ address: 'fd00:5eed::a' }, { address: 'fd00:5eed::a', duid: '00', hwaddr: '', state: 1 });
    assert.deepEqual(reading.records, []);
    assert.deepEqual(reading.ignored, { 'abandoned lease without a MAC address': 1 });
  });

  it('reports a row it cannot read with the address and why: an unknown lease type, an IPv4 address, a broken hwaddr, a group MAC', () => {
    const reading = parseKeaLeases(
      [
        KEA_22_V6,
        render({ ...base, type: 7 }),
        render({ ...base, address: '10.0.0.1' }),
        render({ ...base, hwaddr: 'zz:01' }),
        render({ ...base, hwaddr: '33:33:00:00:00:01' }),
      ].join('\n'),
    );
    assert.deepEqual(
      reading.problems.map((problem) => [problem.line, problem.reason]),
      [
        [2, "fd00:5eed::101: lease_type '7' is not a Kea lease type (0 IA_NA, 1 IA_TA, 2 IA_PD); row skipped"],
        [3, "address '10.0.0.1' is not an IPv6 address; row skipped"],
        [4, "fd00:5eed::101: hwaddr 'zz:01' is not a six-octet MAC address; row skipped"],
        [5, 'fd00:5eed::101: the lease is active but has a multicast or broadcast MAC address (33:33:00:00:00:01); row skipped'],
      ],
    );
    assert.deepEqual(reading.records, []);
  });
});

/** What a reader must make of a row Kea could write. */
const expected = (row: Row, mac: string): Omit<LeaseRecord, 'origin'> => {
  const states = ['active', 'abandoned', 'expired', 'released', 'active'] as const;
  return {
    ip: parseIp(row.address)!.ip,
    mac,
    state: row.valid === 0 ? 'released' : states[row.state],
    ...(row.valid > 0 && row.expire >= row.valid ? { starts: new Date((row.expire - row.valid) * 1000).toISOString() } : {}),
    ends: row.valid === 0xffffffff ? null : new Date(row.expire * 1000).toISOString(),
    ...(row.hostname !== '' ? { hostname: row.hostname } : {}),
  };
};

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(':');
/** A unicast MAC no one would refuse: the group bit clear, never all zero. */
const macs = fc.uint8Array({ minLength: 6, maxLength: 6 }).map((bytes) => hex(Uint8Array.from([(bytes[0] & 0xfe) | 0x02, ...bytes.subarray(1)])));

describe('Kea DHCPv6 rows, generated', () => {
  it('a row Kea could write reads back as what Kea meant, with the MAC from hwaddr or from a link-layer DUID', () => {
    const row = fc.record({
      address: fc.ipV6(),
      mac: macs,
      hwaddrColumn: fc.boolean(),
      duidType: fc.constantFrom(1, 3),
      valid: fc.oneof(fc.integer({ min: 0, max: 0xfffffffe }), fc.constant(0xffffffff)),
      cltt: fc.integer({ min: 0, max: 4_000_000_000 }),
      state: fc.integer({ min: 0, max: 4 }),
      hostname: fc.string({ unit: 'grapheme', maxLength: 40 }).filter((name) => !/[\r\n]/.test(name)),
    });
    fc.assert(
      fc.property(row, (drawn) => {
        const duid = drawn.duidType === 3 ? `00:03:00:01:${drawn.mac}` : `00:01:00:01:2c:7e:3a:10:${drawn.mac}`;
        const written: Row = {
          address: drawn.address,
          duid,
          valid: drawn.valid,
          expire: drawn.cltt + drawn.valid,
          type: 0,
          hostname: drawn.hostname,
          hwaddr: drawn.hwaddrColumn ? drawn.mac : '',
          state: drawn.state,
        };
        const reading = parseKeaLeases(`${KEA_22_V6}\n${render(written)}\n`);
        assert.deepEqual(reading.problems, []);
        assert.deepEqual(
          reading.records.map(({ origin: _origin, ...record }) => record),
          [expected(written, drawn.mac)],
        );
      }),
      { numRuns: 500 },
    );
  });

  it('no row, however hostile, crashes the parser: each is a record, a left-out entry or a problem, and what it keeps is well formed', () => {
    const hostileField = fc.oneof(
      fc.constantFrom('', '0', '1', '2', '3', '4', '-1', '1e3', 'NaN', '0x10', '4294967295', '4294967296', '999999999999999', '253402300800'),
      fc.constantFrom('fd00::1', '::', '10.0.0.1', 'fe80::1%eth0', '02:58:00:00:06:01', 'ff:ff:ff:ff:ff:ff', '00', '00:03:00:01', '&#x2c', '&#xzz'),
      fc.ipV6(),
      fc.string({ unit: 'binary', maxLength: 30 }).map((text) => text.replace(/[,\n]/g, '')),
      macs,
    );
    const hostileRow = fc.oneof(
      fc.array(hostileField, { minLength: WIDTH, maxLength: WIDTH }).map((fields) => fields.join(',')),
      fc.array(hostileField, { maxLength: WIDTH + 3 }).map((fields) => fields.join(',')),
      fc.string({ unit: 'binary', maxLength: 200 }).map((text) => text.replace(/\n/g, '')),
    );
    fc.assert(
      fc.property(fc.array(hostileRow, { maxLength: 30 }), (rows) => {
        const reading = parseKeaLeases([KEA_22_V6, ...rows].join('\n'));
        assert.equal(reading.entries, rows.filter((row) => row.replace(/\r$/, '').trim() !== '').length, 'one entry per row');
        for (const record of reading.records) {
          assert.equal(parseIp(record.ip)?.ip, record.ip);
          assert.equal(parseIp(record.ip)?.family, 6);
          assert.match(record.mac, /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
          assert.ok(LEASE_STATES.includes(record.state));
        }
        for (const problem of reading.problems) assert.doesNotMatch(problem.reason, /[\u0000-\u001f\u007f]/, 'no raw control bytes in a message');
      }),
      { numRuns: 500 },
    );
  });
});
