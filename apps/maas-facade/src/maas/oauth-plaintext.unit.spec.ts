import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authorizationFor, credentialsOf } from './oauth-plaintext';

test('the credentials of a header signed as gomaasapi signs (values query-escaped, any order) read back', () => {
  const header = authorizationFor('ledger:0a1b2c3d4e5f:s3cr_t-with+plus', new Date(0));
  assert.deepEqual(credentialsOf(header), { consumerKey: 'ledger', tokenKey: '0a1b2c3d4e5f', tokenSecret: 's3cr_t-with+plus' });
  const goStyle = 'OAuth oauth_signature="%26abc", realm="MAAS+API", oauth_token="tok", oauth_signature_method="PLAINTEXT", oauth_consumer_key="con"';
  assert.deepEqual(credentialsOf(goStyle), { consumerKey: 'con', tokenKey: 'tok', tokenSecret: 'abc' });
});

test('anything else is no credentials, never an exception', () => {
  for (const header of [
    undefined,
    '',
    'Bearer lk_x',
    'OAuth oauth_consumer_key="c"',
    'OAuth oauth_consumer_key="c", oauth_token="t", oauth_signature_method="HMAC-SHA1", oauth_signature="x"',
    'OAuth oauth_consumer_key="c", oauth_token="t", oauth_signature_method="PLAINTEXT", oauth_signature="%E0%A4%A"',
    `OAuth ${'x'.repeat(5000)}`,
  ]) {
    assert.equal(credentialsOf(header), null, String(header).slice(0, 80));
  }
});
