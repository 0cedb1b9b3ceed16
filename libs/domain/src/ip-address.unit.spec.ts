import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normaliseIp, parseIp } from './ip-address';

describe('IP addresses: validated and written one way only', () => {
  it('writes IPv4 as a dotted quad without leading zeros, reading zero-padded octets as decimal', () => {
    assert.equal(normaliseIp('10.96.14.34'), '10.96.14.34');
    assert.equal(normaliseIp('010.096.014.034'), '10.96.14.34');
    assert.equal(normaliseIp('0.0.0.0'), '0.0.0.0');
    assert.equal(normaliseIp('255.255.255.255'), '255.255.255.255');
  });

  it('writes IPv6 compressed and lowercase (RFC 5952)', () => {
    assert.equal(normaliseIp('2001:DB8:0:0:1:0:0:1'), '2001:db8::1:0:0:1');
    assert.equal(normaliseIp('2001:0db8:0000:0000:0000:0000:0000:0001'), '2001:db8::1');
    assert.equal(normaliseIp('2001:db8:0:1:1:1:1:1'), '2001:db8:0:1:1:1:1:1', 'a single zero group is not compressed');
    assert.equal(normaliseIp('2001:0:0:1:0:0:0:1'), '2001:0:0:1::1', 'the longest run is compressed');
    assert.equal(normaliseIp('2001:db8:0:0:1:0:0:1'), '2001:db8::1:0:0:1', 'the first of equal runs is compressed');
    assert.equal(normaliseIp('0:0:0:0:0:0:0:0'), '::');
    assert.equal(normaliseIp('::1'), '::1');
    assert.equal(normaliseIp('fe80::'), 'fe80::');
    assert.equal(normaliseIp('::FFFF:10.96.14.34'), '::ffff:10.96.14.34', 'IPv4-mapped keeps its dotted tail');
    assert.equal(normaliseIp('::ffff:a60:e22'), '::ffff:10.96.14.34');
    assert.equal(normaliseIp('64:ff9b::10.96.14.34'), '64:ff9b::a60:e22');
  });

  it('refuses what is not one address, naming the problem', () => {
    for (const bad of [
      '',
      '10.96.14',
      '10.96.14.256',
      '10.96.14.34.1',
      ' 10.96.14.34',
      '10.96.14.34/24',
      '1:2:3:4:5:6:7:8:9',
      '2001:db8::g',
      ':::',
      'localhost',
      '1.2.3.04444',
      'a'.repeat(100),
    ]) {
      assert.equal(normaliseIp(bad), null, JSON.stringify(bad));
    }
    assert.match((parseIp('fe80::1%eth0') as { error: string }).error, /zone index/);
  });

  it('property: agrees with the WHATWG URL host serialiser on every IPv6 address (mapped ones aside)', () => {
    const groups = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(groups, fc.boolean(), (g, upper) => {
        const written = g.map((x) => x.toString(16).padStart(upper ? 4 : 1, '0')).join(':');
        const text = upper ? written.toUpperCase() : written;
        const ours = normaliseIp(text)!;
        const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
        if (!mapped) assert.equal(ours, new URL(`http://[${text}]/`).hostname.slice(1, -1));
        assert.equal(normaliseIp(ours), ours, 'the canonical form is a fixed point');
      }),
      { numRuns: 500 },
    );
  });

  it('property: every IPv4 spelling with padded octets normalises to the plain one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        (octets, pad) => {
          const plain = octets.join('.');
          const padded = octets.map((o, i) => (pad[i] ? String(o).padStart(3, '0') : String(o))).join('.');
          assert.equal(normaliseIp(padded), plain);
        },
      ),
    );
  });
});
