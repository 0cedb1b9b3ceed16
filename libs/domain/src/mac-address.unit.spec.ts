import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseMac, parseMac } from './mac-address';

describe('MAC addresses: validated and written lowercase with colons', () => {
  it('accepts the usual spellings', () => {
    for (const spelling of ['2c:59:e5:3b:a1:e4', '2C:59:E5:3B:A1:E4', '2c-59-e5-3b-a1-e4', '2c59.e53b.a1e4', '2C59E53BA1E4']) {
      assert.equal(normaliseMac(spelling), '2c:59:e5:3b:a1:e4', spelling);
    }
  });

  it('refuses malformed, all-zero and group addresses', () => {
    for (const bad of ['', '2c:59:e5:3b:a1', '2c:59:e5:3b:a1:e4:00', '2c:59-e5:3b:a1:e4', 'zz:59:e5:3b:a1:e4', '2c:59:e5:3b:a1:e4 ', '2c5:9e5:3ba:1e4']) {
      assert.equal(normaliseMac(bad), null, bad);
    }
    assert.match((parseMac('00:00:00:00:00:00') as { error: string }).error, /all-zero/);
    assert.match((parseMac('ff:ff:ff:ff:ff:ff') as { error: string }).error, /unicast/);
    assert.match((parseMac('01:00:5e:00:00:01') as { error: string }).error, /unicast/);
  });
});
