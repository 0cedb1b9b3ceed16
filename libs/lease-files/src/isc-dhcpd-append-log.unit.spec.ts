import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseIscLeases } from './isc-dhcpd-parser';
import { leaseFileText as file } from './testing/isc-lease-text';

describe('dhcpd.leases: the file is an append log, the last block for an address wins', () => {
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
});
