import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseIscLeases } from './isc-dhcpd-parser';
import { leaseFileText as file } from './testing/isc-lease-text';

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
