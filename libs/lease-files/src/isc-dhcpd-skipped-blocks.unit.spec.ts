import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseIscLeases } from './isc-dhcpd-parser';
import { leaseFileText as file } from './testing/isc-lease-text';

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
