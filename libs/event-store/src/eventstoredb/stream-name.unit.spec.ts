import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidStreamNameError, requireStreamName } from './stream-name';

describe('stream names for the EventStoreDB adapter', () => {
  it('accepts the ledger streams', () => {
    assert.equal(requireStreamName('node-n1'), 'node-n1');
    assert.equal(requireStreamName('ip-10.0.0.7'), 'ip-10.0.0.7');
  });

  it('refuses empty names, non-strings and $-prefixed (system) streams', () => {
    for (const bad of ['', '$all', '$$node-n1', undefined, 7]) {
      assert.throws(() => requireStreamName(bad), InvalidStreamNameError, String(bad));
    }
  });
});
