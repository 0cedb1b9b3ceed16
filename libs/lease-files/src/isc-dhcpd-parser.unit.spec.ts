// Why this file is over 300 lines: a table of dhcpd.leases cases, one per quirk of the format.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseIscLeases } from './isc-dhcpd-parser';
import { toObservation } from './lease-record';

const file = (...lines: string[]) => lines.join('\n');
const only = (text: string) => {
  const reading = parseIscLeases(text);
  assert.deepEqual(reading.problems, [], JSON.stringify(reading.problems));
  assert.equal(reading.records.length, 1);
  return reading.records[0];
};

describe('dhcpd.leases: reading what dhcpd writes', () => {
  it('reads a lease block as dhcpd 4 writes it, stepping over uid, set and on blocks', () => {
    const record = only(
      file(
        '# The format of this file is documented in the dhcpd.leases(5) manual page.',
        '# This lease file was written by isc-dhcp-4.4.3',
        '',
        'authoring-byte-order little-endian;',
        'server-duid "\\000\\001\\000\\001%>\\347\\000\\000\\026>\\336\\233\\260";',
        '',
        'lease 172.17.1.4 {',
        '  starts 0 2019/10/20 09:58:13;',
        '  ends 0 2019/10/20 10:03:13;',
        '  cltt 0 2019/10/20 09:58:13;',
        '  binding state active;',
        '  next binding state free;',
        '  rewind binding state free;',
        '  hardware ethernet 00:16:3e:EF:a9:c1;',
        '  uid "\\001\\000\\026>\\357\\251\\301";',
        '  set vendor-class-identifier = "MSFT 5.0";',
        '  client-hostname "vxp_0";',
        '  on expiry or release {',
        '    set ddns-rev-name = "4.1.17.172.in-addr.arpa."; # a comment { with braces }',
        '    on commit { execute ("/bin/true"); }',
        '  }',
        '}',
      ),
    );
    assert.deepEqual(toObservation(record), {
      ip: '172.17.1.4',
      mac: '00:16:3e:ef:a9:c1',
      state: 'active',
      starts: '2019-10-20T09:58:13.000Z',
      ends: '2019-10-20T10:03:13.000Z',
      hostname: 'vxp_0',
    });
    assert.deepEqual(record.origin, { line: 7 });
  });

  it('takes the binding state, never the next binding state', () => {
    const record = only(file('lease 10.0.0.9 {', '  next binding state active;', '  binding state released;', '  hardware ethernet 52:54:00:00:00:09;', '}'));
    assert.equal(record.state, 'released');
  });

  it('knows every binding state dhcpd writes', () => {
    const states = {
      active: 'active',
      free: 'free',
      expired: 'expired',
      released: 'released',
      abandoned: 'abandoned',
      backup: 'backup',
      reset: 'free',
      reserved: 'active',
      bootp: 'active',
    };
    for (const [name, state] of Object.entries(states)) {
      assert.equal(only(file('lease 10.0.0.1 {', `  binding state ${name};`, '  hardware ethernet 52:54:00:00:00:01;', '}')).state, state, name);
    }
  });

  it('reads epoch dates with their human comment, never, and UTC dates with an offset', () => {
    const epoch = only(
      file(
        'lease 10.0.0.2 {',
        '  starts epoch 1714550400; # Wed May 01 08:00:00 2024',
        '  ends never;',
        '  binding state active;',
        '  hardware ethernet 52:54:00:00:00:02;',
        '}',
      ),
    );
    assert.equal(epoch.starts, '2024-05-01T08:00:00.000Z');
    assert.equal(epoch.ends, null, 'never ends');
    const offset = only(
      file('lease 10.0.0.3 {', '  starts 3 2024/05/01 08:00:00 -3600;', '  binding state active;', '  hardware ethernet 52:54:00:00:00:03;', '}'),
    );
    assert.equal(offset.starts, '2024-05-01T07:00:00.000Z');
  });

  it('lets the last block for an address win: the file is an append log', () => {
    const reading = parseIscLeases(
      file(
        'lease 10.0.0.5 {',
        '  binding state active;',
        '  hardware ethernet 52:54:00:00:00:05;',
        '}',
        'lease 10.0.0.6 {',
        '  binding state active;',
        '  hardware ethernet 52:54:00:00:00:06;',
        '}',
        'lease 10.0.0.5 {',
        '  binding state released;',
        '  hardware ethernet 52:54:00:00:00:55;',
        '}',
      ),
    );
    assert.deepEqual(
      reading.records.map((r) => [r.ip, r.state, r.mac, r.origin.line]),
      [
        ['10.0.0.6', 'active', '52:54:00:00:00:06', 5],
        ['10.0.0.5', 'released', '52:54:00:00:00:55', 9],
      ],
    );
    assert.equal(reading.entries, 3);
    assert.equal(reading.superseded, 1);
  });

  it('lets an unusable last block win: the address is reported at it, and nothing older is posted (issue 10, item 2)', () => {
    const older = ['lease 10.0.0.5 {', '  binding state active;', '  hardware ethernet 52:54:00:00:00:05;', '}'];
    const zeroMac = parseIscLeases(file(...older, 'lease 10.0.0.5 {', '  binding state active;', '  hardware ethernet 00:00:00:00:00:00;', '}'));
    assert.deepEqual(zeroMac.records, []);
    assert.deepEqual(
      zeroMac.problems.map((p) => p.line),
      [5],
    );
    assert.match(zeroMac.problems[0].reason, /^lease 10\.0\.0\.5 is active but has the all-zero MAC address/);
    const badDate = parseIscLeases(
      file(...older, 'lease 10.0.0.5 {', '  ends 3 2024/02/30 10:00:00;', '  binding state active;', '  hardware ethernet 52:54:00:00:00:55;', '}'),
    );
    assert.deepEqual(badDate.records, []);
    assert.deepEqual(
      badDate.problems.map((p) => p.line),
      [6],
    );
    assert.deepEqual([badDate.entries, badDate.superseded], [2, 1]);
  });

  it('reads a block without a binding state as older dhcpd wrote it: active until its ends, then expired (issue 10, item 4)', () => {
    const now = '2024-05-01T12:00:00.000Z';
    const reading = parseIscLeases(
      file(
        'lease 10.0.0.40 {',
        '  starts 3 2024/05/01 08:00:00;',
        '  ends 3 2024/05/01 20:00:00;',
        '  hardware ethernet 52:54:00:00:00:40;',
        '}',
        'lease 10.0.0.41 {',
        '  starts 3 2024/05/01 08:00:00;',
        '  ends 3 2024/05/01 10:00:00;',
        '  hardware ethernet 52:54:00:00:00:41;',
        '}',
        'lease 10.0.0.42 {',
        '  ends never;',
        '  hardware ethernet 52:54:00:00:00:42;',
        '}',
      ),
      now,
    );
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(
      reading.records.map((r) => [r.ip, r.state]),
      [
        ['10.0.0.40', 'active'],
        ['10.0.0.41', 'expired'],
        ['10.0.0.42', 'active'],
      ],
    );
    assert.equal(reading.entries, 3);
  });

  it('counts every block as an entry read, ignored and skipped ones included (issue 10, item 5)', () => {
    const reading = parseIscLeases(
      file(
        'lease 10.0.0.50 {',
        '  binding state active;',
        '  hardware ethernet 52:54:00:00:00:50;',
        '}',
        'lease 10.0.0.51 {',
        '  binding state free;',
        '}',
        'lease 10.0.0.52 {',
        '  binding state active;',
        '  hardware ethernet zz;',
        '}',
        'lease 10.0.0.999 {',
        '  binding state active;',
        '}',
        'lease 10.0.0.53 {',
        '  binding state active;',
      ),
    );
    assert.equal(reading.records.length, 1);
    assert.deepEqual(reading.ignored, { 'free lease without a MAC address': 1 });
    assert.equal(reading.problems.length, 3);
    assert.equal(reading.entries, 5);
    assert.ok(
      reading.problems.every((p) => p.line > 0 && !/line 0\b/.test(p.reason)),
      JSON.stringify(reading.problems),
    );
  });

  it('lets a later free lease without a MAC clear what an earlier block said', () => {
    const reading = parseIscLeases(
      file('lease 10.0.0.7 {', '  binding state active;', '  hardware ethernet 52:54:00:00:00:07;', '}', 'lease 10.0.0.7 {', '  binding state free;', '}'),
    );
    assert.deepEqual(reading.records, []);
    assert.deepEqual(reading.ignored, { 'free lease without a MAC address': 1 });
    assert.deepEqual(reading.problems, []);
  });

  it('reads dhcpd -6 ia-na blocks: every iaaddr is a lease, the MAC comes from the DUID', () => {
    const reading = parseIscLeases(
      file(
        'server-duid "\\000\\001\\000\\001\\036\\325\\2237\\000\\014)\\350\\361\\025";',
        'ia-na "\\001\\000\\000\\000\\000\\003\\000\\001RT\\000\\253\\315\\357" {',
        '  cltt 3 2024/05/01 08:00:00;',
        '  iaaddr 2001:DB8:0:0::1:5 {',
        '    binding state active;',
        '    preferred-life 375;',
        '    max-life 600;',
        '    ends epoch 1714551000; # Wed May 01 08:10:00 2024',
        '    set ddns-fwd-name = "host.example.";',
        '  }',
        '  iaaddr 2001:db8::1:6 {',
        '    binding state expired;',
        '    ends 3 2024/05/01 07:00:00;',
        '  }',
        '}',
        'ia-pd "\\001\\000\\000\\000\\000\\003\\000\\001RT\\000\\253\\315\\357" {',
        '  iaprefix 2001:db8:1::/56 {',
        '    binding state active;',
        '  }',
        '}',
      ),
    );
    assert.deepEqual(reading.problems, []);
    assert.deepEqual(reading.records.map(toObservation), [
      { ip: '2001:db8::1:5', mac: '52:54:00:ab:cd:ef', state: 'active', ends: '2024-05-01T08:10:00.000Z' },
      { ip: '2001:db8::1:6', mac: '52:54:00:ab:cd:ef', state: 'expired', ends: '2024-05-01T07:00:00.000Z' },
    ]);
    assert.deepEqual(reading.ignored, { 'DHCPv6 prefix delegation (ia-pd)': 1 });
  });

  it('reads an IAID and DUID written as a hex list too', () => {
    const record = only(file('ia-ta 01:00:00:00:00:01:00:01:2c:7e:3a:10:52:54:00:ab:cd:01 {', '  iaaddr fe80::1 {', '    binding state active;', '  }', '}'));
    assert.equal(record.mac, '52:54:00:ab:cd:01');
  });

  it('steps over failover state, host and group declarations', () => {
    const reading = parseIscLeases(
      file(
        'failover peer "dhcp-failover" state {',
        '  my state normal at 4 2024/05/02 08:00:00;',
        '  partner state normal at 4 2024/05/02 08:00:01;',
        '  mclt 3600;',
        '}',
        'host static-1 {',
        '  dynamic;',
        '  hardware ethernet 52:54:00:00:00:99;',
        '  fixed-address 10.0.0.99;',
        '  group "lab";',
        '}',
        'group lab { dynamic; }',
      ),
    );
    assert.deepEqual(reading, { records: [], entries: 0, superseded: 0, problems: [], ignored: {} });
  });
});

describe('dhcpd.leases: what cannot be read is skipped with its line and why, and the rest is read', () => {
  const good = (ip: string, octet: string) => ['lease ' + ip + ' {', '  binding state active;', `  hardware ethernet 52:54:00:00:00:${octet};`, '}'];
  const around = (...broken: string[]) => parseIscLeases(file(...good('10.0.1.1', '01'), ...broken, ...good('10.0.1.2', '02')));
  const expectOneProblem = (reading: ReturnType<typeof parseIscLeases>, line: number, pattern: RegExp) => {
    assert.deepEqual(
      reading.records.map((r) => r.ip),
      ['10.0.1.1', '10.0.1.2'],
      'the good blocks around it are read',
    );
    assert.equal(reading.problems.length, 1, JSON.stringify(reading.problems));
    assert.equal(reading.problems[0].line, line);
    assert.match(reading.problems[0].reason, pattern);
  };

  it('a header that names no IPv4 address', () => {
    expectOneProblem(around('lease 10.0.0.300 {', '  binding state active;', '}'), 5, /'lease 10\.0\.0\.300' does not name an IPv4 address/);
  });

  it('a hardware address that is not one', () => {
    expectOneProblem(
      around('lease 10.0.0.8 {', '  binding state active;', '  hardware ethernet 52:54:00:zz:00:08;', '}'),
      7,
      /lease 10\.0\.0\.8 \(block at line 5\) skipped: 'hardware ethernet 52:54:00:zz:00:08'/,
    );
  });

  it('a date that does not exist', () => {
    expectOneProblem(
      around('lease 10.0.0.8 {', '  ends 3 2024/02/30 10:00:00;', '  binding state active;', '  hardware ethernet 52:54:00:00:00:08;', '}'),
      6,
      /ends: 2024\/02\/30 10:00:00 is not a valid date/,
    );
    expectOneProblem(
      around('lease 10.0.0.8 {', '  starts epoch soon;', '  binding state active;', '  hardware ethernet 52:54:00:00:00:08;', '}'),
      6,
      /'epoch soon' is not 'epoch <seconds>'/,
    );
  });

  it('a binding state dhcpd does not write', () => {
    expectOneProblem(
      around('lease 10.0.0.8 {', '  binding state dormant;', '  hardware ethernet 52:54:00:00:00:08;', '}'),
      6,
      /'binding state dormant' is not a known binding state/,
    );
  });

  it('an active lease without a hardware address (the ledger could not match it)', () => {
    expectOneProblem(around('lease 10.0.0.8 {', '  binding state active;', '}'), 5, /lease 10\.0\.0\.8 is active but has no 'hardware' statement/);
  });

  it('an active lease whose hardware address is no interface’s own (all-zero, multicast); a free one is just ignored', () => {
    expectOneProblem(
      around('lease 10.0.0.8 {', '  binding state active;', '  hardware ethernet 01:00:5e:00:00:fb;', '}'),
      5,
      /lease 10\.0\.0\.8 is active but has a multicast or broadcast MAC address \(01:00:5e:00:00:fb\)/,
    );
    expectOneProblem(
      around('lease 10.0.0.8 {', '  binding state active;', '  hardware ethernet 00:00:00:00:00:00;', '}'),
      5,
      /lease 10\.0\.0\.8 is active but has the all-zero MAC address; skipped/,
    );
    // Issue 10, item 5: an all-zero MAC is not "without a MAC address".
    const free = around('lease 10.0.0.8 {', '  binding state free;', '  hardware ethernet 00:00:00:00:00:00;', '}');
    assert.deepEqual([free.problems, free.ignored], [[], { 'free lease with the all-zero MAC address': 1 }]);
  });

  it('a block cut short by a crash: the next lease line starts afresh', () => {
    expectOneProblem(
      around('lease 10.0.0.8 {', '  starts 3 2024/05/01 08:00:00;', '  binding sta'),
      5,
      /'lease 10\.0\.0\.8' block at line 5 is not closed before line 8/,
    );
  });

  it('a block cut short at the end of the file', () => {
    const reading = parseIscLeases(file(...good('10.0.1.1', '01'), 'lease 10.0.0.8 {', '  binding state active;'));
    assert.deepEqual(
      reading.records.map((r) => r.ip),
      ['10.0.1.1'],
    );
    assert.deepEqual(
      reading.problems.map((p) => p.line),
      [5],
    );
    assert.match(reading.problems[0].reason, /not closed at the end of the file/);
  });

  it('a string that never ends', () => {
    expectOneProblem(
      around('lease 10.0.0.8 {', '  binding state active;', '  client-hostname "web;', '  hardware ethernet 52:54:00:00:00:08;', '}'),
      7,
      /unterminated string/,
    );
  });

  it('a statement without its semicolon', () => {
    expectOneProblem(
      around('lease 10.0.0.8 {', '  binding state active', '  hardware ethernet 52:54:00:00:00:08;', '}'),
      6,
      /'binding state active hardware ethernet 52:54:00:00:00:08' is not a known binding state/,
    );
  });

  it('garbage between blocks, a stray brace, an unknown declaration', () => {
    expectOneProblem(around('this is not a lease file line'), 5, /'this is not a lease file line' is not a complete statement/);
    expectOneProblem(around('}'), 5, /'}' without an open block/);
    expectOneProblem(around('lease-o-matic 10.0.0.8 {', '}'), 5, /unrecognised declaration 'lease-o-matic 10\.0\.0\.8'/);
    expectOneProblem(around('frobnicate 12;'), 5, /unrecognised statement 'frobnicate 12'/);
  });

  it('an iaaddr that names no IPv6 address, and an active IA whose DUID carries no MAC', () => {
    const reading = parseIscLeases(
      file(
        'ia-na "\\001\\000\\000\\000\\000\\003\\000\\001RT\\000\\253\\315\\357" {',
        '  iaaddr 10.0.0.1 {',
        '    binding state active;',
        '  }',
        '  iaaddr 2001:db8::9 {',
        '    binding state active;',
        '  }',
        '}',
        'ia-na "\\001\\000\\000\\000\\000\\002\\000\\000\\011\\277\\001\\002" {',
        '  iaaddr 2001:db8::a {',
        '    binding state active;',
        '  }',
        '}',
      ),
    );
    assert.deepEqual(
      reading.records.map((r) => r.ip),
      ['2001:db8::9'],
    );
    assert.deepEqual(
      reading.problems.map((p) => p.line),
      [2, 10],
    );
    assert.match(reading.problems[1].reason, /no MAC address: the client's DUID \(type 2\) carries no Ethernet address/);
  });
});

describe('dhcpd.leases: a file that is not one (issue 10, item 3)', () => {
  it('stops after a bounded number of lines no lease file holds, before reading the rest', () => {
    const garbage = Array.from({ length: 10_000 }, (_, i) => `garbage line ${i} with words but no semicolon`).join('\n');
    assert.throws(
      () => parseIscLeases(garbage),
      (error: Error) => {
        assert.equal(error.name, 'NotALeaseFile');
        assert.match(error.message, /not a dhcpd\.leases file: 20 of its first 20 lines/);
        return true;
      },
    );
  });

  it('quotes at most about 80 characters of offending text, control bytes escaped', () => {
    const reading = parseIscLeases(
      file('lease 10.0.1.1 {', '  binding state active;', '  hardware ethernet 52:54:00:00:00:01;', '}', `\u0000\u001b[31m${'x'.repeat(5_000)};`),
    );
    assert.equal(reading.problems.length, 1);
    const [problem] = reading.problems;
    assert.ok(problem.reason.length < 200, problem.reason);
    assert.doesNotMatch(problem.reason, /[\u0000-\u001f]/);
    assert.match(problem.reason, /\\x00\\x1b\[31mxxx/);
  });

  it('reads an empty file as no leases, without a problem', () => {
    assert.deepEqual(parseIscLeases(''), { records: [], entries: 0, superseded: 0, problems: [], ignored: {} });
  });
});
