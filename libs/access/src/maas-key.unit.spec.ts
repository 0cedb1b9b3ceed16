import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mintApiKey } from './api-key';
import { ledgerKeyOfMaasCredentials, maasKeyOf } from './maas-key';

test('a ledger key survives the trip through MAAS key format and back', () => {
  for (let i = 0; i < 200; i++) {
    const { key } = mintApiKey();
    const maasKey = maasKeyOf(key);
    assert.ok(maasKey);
    const parts = maasKey.split(':');
    assert.equal(parts.length, 3, 'gomaasapi splits the key on ":" into exactly three parts');
    assert.equal(ledgerKeyOfMaasCredentials(parts[0], parts[1], parts[2]), key);
  }
});

test('anything that is not a ledger key is refused both ways', () => {
  assert.equal(maasKeyOf('not-a-key'), null);
  assert.equal(ledgerKeyOfMaasCredentials('other', '0a1b2c3d4e5f', 'x'.repeat(32)), null);
  assert.equal(ledgerKeyOfMaasCredentials('ledger', 'zz', 'x'.repeat(32)), null);
  assert.equal(ledgerKeyOfMaasCredentials('ledger', '0a1b2c3d4e5f', 'short'), null);
});
