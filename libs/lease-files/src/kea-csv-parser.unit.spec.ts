import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeaLeaseParser, MAX_UNRECOGNISED_ROWS_IN_A_ROW, parseKeaLeases, unescapeKeaText } from './kea-csv-parser';
import { keaLeaseFileSet } from './kea-lease-file-set';
import { LatestLeases } from './latest-leases';
import { detectLeaseFileFormat } from './lease-file-format';
import { toObservation } from './lease-record';
import { keaEscape } from './testing/lease-file-writers';

const V4 = 'address,hwaddr,client_id,valid_lifetime,expire,subnet_id,fqdn_fwd,fqdn_rev,hostname,state,user_context,pool_id';
const V6 =
  'address,duid,valid_lifetime,expire,subnet_id,pref_lifetime,lease_type,iaid,prefix_len,fqdn_fwd,fqdn_rev,hostname,hwaddr,state,user_context,hwtype,hwaddr_source,pool_id';
const csv = (...lines: string[]) => lines.join('\n');

describe('Kea memfile CSV: reading what Kea writes', () => {
  it('reads a v4 row: expire is cltt + valid_lifetime, the hostname unescaped', () => {
    const reading = parseKeaLeases(
      csv(V4, '192.0.2.10,52:54:00:AB:cd:ef,01:52:54:00:ab:cd:ef,3600,1714554000,1,1,1,web-1.example.org.,0,{ "ISC": { "relay-agent-info": "0x0102" } },0', ''),
    );
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(reading.records.map(toObservation), [
      {
        ip: '192.0.2.10',
        mac: '52:54:00:ab:cd:ef',
        state: 'active',
        starts: '2024-05-01T08:00:00.000Z',
        ends: '2024-05-01T09:00:00.000Z',
        hostname: 'web-1.example.org.',
      },
    ]);
    assert.deepEqual(reading.records[0].origin, { line: 2 });
  });

  it('finds columns by header name: older files (fewer columns) and reordered or extra columns read alike', () => {
    const kea10 = parseKeaLeases(
      csv('address,hwaddr,client_id,valid_lifetime,expire,subnet_id,fqdn_fwd,fqdn_rev,hostname', '192.0.2.11,52:54:00:00:00:11,,600,1714554000,1,0,0,'),
    );
    assert.deepEqual(
      kea10.records.map((r) => [r.ip, r.state, r.hostname]),
      [['192.0.2.11', 'active', undefined]],
      'no state column: state 0',
    );
    const shuffled = parseKeaLeases(
      csv('hostname,state,expire,valid_lifetime,hwaddr,address,future_column', 'db-2,3,1714554000,600,52:54:00:00:00:12,192.0.2.12,whatever'),
    );
    assert.deepEqual(
      shuffled.records.map((r) => [r.ip, r.mac, r.state, r.hostname]),
      [['192.0.2.12', '52:54:00:00:00:12', 'released', 'db-2']],
    );
  });

  it('maps Kea lease states 0-4 onto the record states', () => {
    const states = ['active', 'abandoned', 'expired', 'released', 'active'];
    const reading = parseKeaLeases(csv(V4, ...states.map((_, code) => `192.0.2.${20 + code},52:54:00:00:00:2${code},,600,1714554000,1,0,0,,${code},,0`)));
    assert.deepEqual(
      reading.records.map((r) => r.state),
      states,
    );
  });

  it('reads valid_lifetime 0 as a deleted lease, and the infinite lifetime as never ending', () => {
    const reading = parseKeaLeases(
      csv(
        V4,
        '192.0.2.30,52:54:00:00:00:30,,3600,1714554000,1,0,0,,0,,0',
        '192.0.2.30,52:54:00:00:00:30,,0,1714555000,1,0,0,,0,,0',
        '192.0.2.31,52:54:00:00:00:31,,4294967295,5009522095,1,0,0,,0,,0',
      ),
    );
    assert.deepEqual(
      reading.records.map((r) => [r.ip, r.state, r.ends]),
      [
        ['192.0.2.30', 'released', '2024-05-01T09:16:40.000Z'],
        ['192.0.2.31', 'active', null],
      ],
    );
    assert.equal(reading.superseded, 1);
  });

  it("decodes Kea's &#xNN escapes, and leaves a tag that is not one alone", () => {
    assert.equal(unescapeKeaText('rack 4&#x2c row 2 &#x26 co'), 'rack 4, row 2 & co');
    assert.equal(unescapeKeaText('&#xc3&#xbc &#xzz &#x4'), 'ü &#xzz &#x4');
    for (const text of ['a,b', '&#x2c', 'plain', ',,&&', 'ü, ç']) assert.equal(unescapeKeaText(keaEscape(text)), text);
    const reading = parseKeaLeases(csv(V4, '192.0.2.40,52:54:00:00:00:40,,600,1714554000,1,0,0,db&#x2c primary,0,{ "a": 1&#x2c "b": 2 },0'));
    assert.equal(reading.records[0].hostname, 'db, primary');
  });

  it('reads v6 rows: the MAC from hwaddr, or else from a link-layer DUID; prefix delegations ignored', () => {
    const reading = parseKeaLeases(
      csv(
        V6,
        '2001:db8:1::10,00:03:00:01:52:54:00:00:01:10,3600,1714554000,1,1800,0,1,128,0,0,v6-host,,0,,0,0,0',
        '2001:db8:1::11,00:02:00:00:09:bf:01:02,3600,1714554000,1,1800,0,1,128,0,0,,52:54:00:00:01:11,0,,1,2,0',
        '2001:db8:1:0:0:0:0:12,00:01:00:01:2c:7e:3a:10:52:54:00:00:01:12,3600,1714554000,1,1800,0,1,128,0,0,,,0,,0,0,0',
        '2001:db8:ff:100::,00:03:00:01:52:54:00:00:01:10,3600,1714554000,1,1800,2,1,56,0,0,,,0,,0,0,0',
      ),
    );
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(
      reading.records.map((r) => [r.ip, r.mac, r.hostname]),
      [
        ['2001:db8:1::10', '52:54:00:00:01:10', 'v6-host'],
        ['2001:db8:1::11', '52:54:00:00:01:11', undefined],
        ['2001:db8:1::12', '52:54:00:00:01:12', undefined],
      ],
    );
    assert.deepEqual(reading.ignored, { 'DHCPv6 prefix delegation (IA_PD, lease_type 2)': 1 });
  });

  it('lets a declined lease without a hardware address clear the address, without a problem', () => {
    const reading = parseKeaLeases(csv(V4, '192.0.2.50,52:54:00:00:00:50,,600,1714554000,1,0,0,,0,,0', '192.0.2.50,,,86400,1714640400,1,0,0,,1,,0'));
    assert.deepEqual(reading.records, []);
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(reading.ignored, { 'abandoned lease without a MAC address': 1 });
  });

  it('tells Kea files from dhcpd.leases by their first line', () => {
    assert.equal(detectLeaseFileFormat(['', V4]), 'kea');
    assert.equal(detectLeaseFileFormat([V6]), 'kea');
    assert.equal(detectLeaseFileFormat(['hostname,state,expire,valid_lifetime,hwaddr,address']), 'kea');
    assert.equal(detectLeaseFileFormat(['# The format of this file is documented in the dhcpd.leases(5) manual page.']), 'isc');
    assert.equal(detectLeaseFileFormat(['lease 10.0.0.1 {']), 'isc');
    assert.equal(detectLeaseFileFormat([]), 'isc');
  });
});

describe('Kea memfile CSV: what cannot be read is skipped with its line and why', () => {
  const rowsAround = (...bad: string[]) =>
    parseKeaLeases(csv(V4, '192.0.2.1,52:54:00:00:00:01,,600,1714554000,1,0,0,,0,,0', ...bad, '192.0.2.2,52:54:00:00:00:02,,600,1714554000,1,0,0,,0,,0'));
  const cases: [string, RegExp][] = [
    ['192.0.2.3,52:54:00:00:00:03,,600,1714554000,1,0,0,,0,', /11 fields where the header has 12/],
    ['192.0.2.300,52:54:00:00:00:03,,600,1714554000,1,0,0,,0,,0', /address '192\.0\.2\.300' is not an IPv4 address/],
    ['2001:db8::3,52:54:00:00:00:03,,600,1714554000,1,0,0,,0,,0', /is not an IPv4 address/],
    ['192.0.2.3,52:54:00:00:00:03,,600,soon,1,0,0,,0,,0', /expire 'soon' is not an epoch time/],
    ['192.0.2.3,52:54:00:00:00:03,,-5,1714554000,1,0,0,,0,,0', /valid_lifetime '-5' is not a number of seconds/],
    ['192.0.2.3,52:54:00:00:00:03,,600,1714554000,1,0,0,,7,,0', /state '7' is not a Kea lease state/],
    ['192.0.2.3,zz:00,,600,1714554000,1,0,0,,0,,0', /hwaddr 'zz:00' is not a six-octet MAC address/],
    ['192.0.2.3,,,600,1714554000,1,0,0,,0,,0', /active but has no hardware address/],
    ['192.0.2.3,ff:ff:ff:ff:ff:ff,,600,1714554000,1,0,0,,0,,0', /active but has a multicast or broadcast MAC address \(ff:ff:ff:ff:ff:ff\)/],
    ['192.0.2.3,00:00:00:00:00:00,,600,1714554000,1,0,0,,0,,0', /active but has the all-zero MAC address/],
  ];
  for (const [row, pattern] of cases) {
    it(`skips ${row}`, () => {
      const reading = rowsAround(row);
      assert.deepEqual(
        reading.records.map((r) => r.ip),
        ['192.0.2.1', '192.0.2.2'],
      );
      assert.deepEqual(
        reading.problems.map((p) => p.line),
        [3],
      );
      assert.match(reading.problems[0].reason, pattern);
      // Issue 10, item 5: a skipped row names its address, whenever the address could be read.
      if (!/fields where|is not an IPv4/.test(pattern.source)) assert.match(reading.problems[0].reason, /^192\.0\.2\.3: /);
    });
  }

  it('takes a v4 MAC from a hardware-type-1 client id when hwaddr is empty (issue 10, item 5)', () => {
    const reading = parseKeaLeases(
      csv(V4, '192.0.2.20,,01:52:54:00:00:00:20,600,1714554000,1,0,0,,0,,0', '192.0.2.21,,ff:00:00:00:01:00:01,600,1714554000,1,0,0,,0,,0'),
    );
    assert.deepEqual(
      reading.records.map((r) => [r.ip, r.mac]),
      [['192.0.2.20', '52:54:00:00:00:20']],
    );
    assert.deepEqual(
      reading.problems.map((p) => p.reason),
      ['192.0.2.21: the lease is active but has no hardware address; row skipped'],
      'a client id of another type carries no MAC',
    );
  });

  it('lets an unusable last row win: nothing older is posted for its address (issue 10, item 2)', () => {
    const reading = parseKeaLeases(
      csv(V4, '192.0.2.30,52:54:00:00:00:30,,600,1714554000,1,0,0,,0,,0', '192.0.2.30,00:00:00:00:00:00,,600,1714557600,1,0,0,,0,,0'),
    );
    assert.deepEqual(reading.records, []);
    assert.deepEqual(
      reading.problems.map((p) => [p.line, p.reason]),
      [[3, '192.0.2.30: the lease is active but has the all-zero MAC address; row skipped']],
    );
    assert.deepEqual([reading.entries, reading.superseded], [2, 1]);
  });

  it('refuses a file whose header is not a Kea header, naming the file, quoting the line escaped (issue 10.3)', () => {
    const refuses = (file: string, lines: string[], pattern: RegExp) => {
      const parser = new KeaLeaseParser(new LatestLeases());
      parser.startFile(file);
      assert.throws(
        () => lines.forEach((line) => parser.pushLine(line)),
        (error: Error) => error.name === 'NotALeaseFile' && pattern.test(error.message),
      );
    };
    refuses(
      'leases4.csv.1',
      ['ip,mac', '192.0.2.1,52:54:00:00:00:01'],
      /^leases4\.csv\.1 is not a Kea lease file: its first line is no Kea lease-file header \(no 'address' column\): 'ip,mac'; stopped reading at line 1$/,
    );
    refuses(
      'leases4.csv',
      ['address,client_id,expire', '192.0.2.1,,1'],
      /^leases4\.csv is not a Kea lease file: its header lacks the columns hwaddr, valid_lifetime; stopped reading at line 1$/,
    );
    refuses('x.csv', [`\u001b[31m${'y'.repeat(500)}`], /header \(no 'address' column\): '\\x1b\[31my{75}…'; stopped/);
  });

  it(`stops after ${MAX_UNRECOGNISED_ROWS_IN_A_ROW} rows in a row that are no lease rows, wherever they start (issue 10.3)`, () => {
    const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `garbage \u0000 ${from + i}`);
    const leaseRow = '192.0.2.1,52:54:00:00:00:01,,600,1714554000,1,0,0,,0,,0';
    // Fewer in a row, broken up by a lease row, are reported one by one and the file is read.
    const tolerated = parseKeaLeases(csv(V4, ...rows(MAX_UNRECOGNISED_ROWS_IN_A_ROW - 1), leaseRow, ...rows(MAX_UNRECOGNISED_ROWS_IN_A_ROW - 1)));
    assert.equal(tolerated.records.length, 1);
    assert.equal(tolerated.problems.length, 2 * (MAX_UNRECOGNISED_ROWS_IN_A_ROW - 1));
    assert.throws(
      () => parseKeaLeases(csv(V4, leaseRow, ...rows(MAX_UNRECOGNISED_ROWS_IN_A_ROW + 500))),
      (error: Error) =>
        error.name === 'NotALeaseFile' &&
        new RegExp(
          `^this is not a Kea lease file: lines 3-${MAX_UNRECOGNISED_ROWS_IN_A_ROW + 2} are no lease rows \\(${MAX_UNRECOGNISED_ROWS_IN_A_ROW} in a row\\); stopped reading at line ${MAX_UNRECOGNISED_ROWS_IN_A_ROW + 2}$`,
        ).test(error.message),
    );
  });
});

describe('Kea lease-file sets: the order Kea loads them in', () => {
  const existing =
    (...paths: string[]) =>
    (path: string) =>
      paths.includes(path);
  it('reads .2, then .1, then the file itself; later files win', () => {
    assert.deepEqual(keaLeaseFileSet('/kea/leases4.csv', existing('/kea/leases4.csv', '/kea/leases4.csv.1', '/kea/leases4.csv.2')), [
      '/kea/leases4.csv.2',
      '/kea/leases4.csv.1',
      '/kea/leases4.csv',
    ]);
    assert.deepEqual(keaLeaseFileSet('/kea/leases4.csv', existing('/kea/leases4.csv', '/kea/leases4.csv.1')), ['/kea/leases4.csv.1', '/kea/leases4.csv']);
  });
  it('reads a finished-but-not-moved cleanup (.completed) instead of .2 and .1', () => {
    assert.deepEqual(keaLeaseFileSet('/kea/l.csv', existing('/kea/l.csv', '/kea/l.csv.completed', '/kea/l.csv.1', '/kea/l.csv.2')), [
      '/kea/l.csv.completed',
      '/kea/l.csv',
    ]);
  });
  it('reads just the file when it is one of the set already', () => {
    assert.deepEqual(keaLeaseFileSet('/kea/l.csv.1', existing('/kea/l.csv', '/kea/l.csv.1', '/kea/l.csv.2')), ['/kea/l.csv.1']);
  });
  it('applies the order when parsing: a row in the base file beats the same address in .1 and .2', () => {
    const latest = new LatestLeases();
    const parser = new KeaLeaseParser(latest);
    const files: Record<string, string[]> = {
      'l.csv.2': [V4, '192.0.2.9,52:54:00:00:00:09,,600,1714554000,1,0,0,,0,,0'],
      'l.csv.1': [V4, '192.0.2.9,52:54:00:00:00:09,,600,1714554600,1,0,0,,0,,0'],
      'l.csv': [V4, '192.0.2.9,52:54:00:00:00:09,,600,1714555200,1,0,0,,3,,0'],
    };
    for (const file of keaLeaseFileSet('l.csv', (p) => p in files)) {
      parser.startFile(file);
      files[file].forEach((line) => parser.pushLine(line));
      parser.endFile();
    }
    const reading = latest.reading();
    assert.deepEqual(
      reading.records.map((r) => [r.state, r.origin]),
      [['released', { file: 'l.csv', line: 2 }]],
    );
    assert.equal(reading.superseded, 2);
  });
});
