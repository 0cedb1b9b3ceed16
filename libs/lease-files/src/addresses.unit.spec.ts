import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bytesFromHexList, macFromDuid, normalizeMac, parseIp, unusableMacReason } from './addresses';

describe('addresses: one spelling per address', () => {
  it('reads IPv4 as a plain dotted quad and refuses what is not one', () => {
    assert.deepEqual(parseIp('10.0.0.1'), { ip: '10.0.0.1', family: 4 });
    assert.deepEqual(parseIp('010.000.000.001'), { ip: '10.0.0.1', family: 4 });
    for (const bad of ['10.0.0.256', '10.0.0', '10.0.0.1.2', ' 10.0.0.1', '10.0.0.-1', '', 'a.b.c.d']) assert.equal(parseIp(bad), null, bad);
  });

  it('writes IPv6 as RFC 5952 says: lowercase, no leading zeros, the longest zero run as ::, the first on a tie', () => {
    const cases: [string, string][] = [
      ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
      ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
      ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
      ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
      ['::', '::'],
      ['::1', '::1'],
      ['fe80::', 'fe80::'],
      ['::ffff:192.0.2.1', '::ffff:192.0.2.1'],
      ['::192.0.2.1', '::c000:201'],
      ['1:2:3:4:5:6:192.0.2.1', '1:2:3:4:5:6:c000:201'],
    ];
    for (const [text, canonical] of cases) assert.deepEqual(parseIp(text), { ip: canonical, family: 6 }, text);
    for (const bad of ['1::2::3', '1:2:3:4:5:6:7:8:9', '1::2:3:4:5:6:7:8', ':1::2', 'fe80::1%eth0', '12345::', 'g::1', '::ffff:300.1.1.1'])
      assert.equal(parseIp(bad), null, bad);
  });

  it('gives every spelling of one IPv6 address the same text, and that text reads back as itself', () => {
    const groups = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(groups, fc.boolean(), (words, upper) => {
        const full = words.map((w) => w.toString(16).padStart(4, '0')).join(':');
        const spelled = upper ? full.toUpperCase() : words.map((w) => w.toString(16)).join(':');
        const a = parseIp(full);
        const b = parseIp(spelled);
        assert.ok(a && b);
        assert.equal(a.ip, b.ip);
        assert.equal(parseIp(a.ip)?.ip, a.ip);
        assert.ok(!/(^|:)0[0-9a-f]/.test(a.ip) || a.ip.startsWith('::ffff:'), `no leading zeros in ${a.ip}`);
        assert.ok(a.ip.split('::').length <= 2);
      }),
      { numRuns: 500 },
    );
  });

  it('writes MACs lowercase and colon-separated, whatever the source wrote', () => {
    assert.equal(normalizeMac('52:54:00:AB:cd:0F'), '52:54:00:ab:cd:0f');
    assert.equal(normalizeMac('0:c:29:1a:2b:3c'), '00:0c:29:1a:2b:3c', 'old dhcpd left out leading zeros');
    assert.equal(normalizeMac('52-54-00-ab-cd-ef'), '52:54:00:ab:cd:ef');
    assert.equal(normalizeMac('5254.00ab.cdef'), '52:54:00:ab:cd:ef');
    assert.equal(normalizeMac('525400ABCDEF'), '52:54:00:ab:cd:ef');
    for (const bad of ['52:54:00:ab:cd', '52:54:00:ab:cd:ef:01', 'zz:54:00:ab:cd:ef', '525:4:00:ab:cd:ef', '']) assert.equal(normalizeMac(bad), null, bad);
  });

  it('knows the MACs no interface holds a lease with', () => {
    assert.equal(unusableMacReason('52:54:00:ab:cd:ef'), null);
    assert.equal(unusableMacReason('00:00:00:00:00:00'), 'the all-zero MAC address');
    assert.match(unusableMacReason('ff:ff:ff:ff:ff:ff')!, /multicast or broadcast/);
    assert.match(unusableMacReason('33:33:00:00:00:01')!, /multicast or broadcast/);
  });

  it('finds the MAC inside link-layer DUIDs and only there', () => {
    const ll = bytesFromHexList('00:03:00:01:52:54:00:ab:cd:ef')!;
    const llt = bytesFromHexList('00:01:00:01:2c:7e:3a:10:52:54:00:ab:cd:ef')!;
    assert.equal(macFromDuid(ll), '52:54:00:ab:cd:ef');
    assert.equal(macFromDuid(llt), '52:54:00:ab:cd:ef');
    assert.equal(macFromDuid(bytesFromHexList('00:02:00:00:09:bf:01:02:03:04')!), null, 'DUID-EN has no MAC');
    assert.equal(macFromDuid(bytesFromHexList('00:03:00:06:52:54:00:ab:cd:ef')!), null, 'not Ethernet');
    assert.equal(macFromDuid(bytesFromHexList('00:03:00:01:52:54:00:ab')!), null, 'too short for a MAC');
    assert.equal(bytesFromHexList('00:zz'), null);
  });
});
