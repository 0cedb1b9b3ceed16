import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mintDeviceId, parseDeviceId } from './device-id';
import { mintToken, parseToken } from '../provisioning-token';

describe('device ids', () => {
  it('route to their node and name the allocation epoch and sequence', () => {
    const id = mintDeviceId('node-7', 3, 12);
    assert.deepEqual(parseDeviceId(id), { nodeId: 'node-7', epoch: 3, sequence: 12 });
  });

  it('are never mistaken for tokens, nor tokens for them', () => {
    const id = mintDeviceId('node-7', 3, 1);
    assert.equal(parseToken(id), null);
    assert.equal(parseDeviceId(mintToken('node-7', 3, 'abcdefghijklmnop')), null);
  });

  it('refuse malformed ids and ill-formed node ids', () => {
    for (const bad of ['', 'bm9kZS03.3', 'bm9kZS03.3.d0', 'bm9kZS03.0.d1', 'bm9kZS03.3.x1', 'bm9kZS03=.3.d1', 'a.b.c.d'])
      assert.equal(parseDeviceId(bad), null, bad);
    assert.throws(() => mintDeviceId('', 1, 1), RangeError);
    assert.throws(() => mintDeviceId('\uD800', 1, 1), RangeError);
    assert.throws(() => mintDeviceId('n', 0, 1), RangeError);
  });

  it('property: (nodeId, epoch, sequence) round-trips, so distinct triples give distinct ids', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 1e6 }),
        (nodeId, epoch, sequence) => {
          assert.deepEqual(parseDeviceId(mintDeviceId(nodeId, epoch, sequence)), { nodeId, epoch, sequence });
        },
      ),
    );
  });
});
