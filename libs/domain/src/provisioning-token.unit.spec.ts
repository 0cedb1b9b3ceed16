import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mintToken, parseToken } from './provisioning-token';

/**
 * A provisioning token is what a consumer stores as its instance id. It must be unique
 * by construction (the node and its epoch are in it), route back to its node without a
 * read model (parseToken), and be unguessable (the injected entropy).
 */
const ENTROPY = 'Zk3q-9_xYb2LmN0p';
const URL_SAFE = /^[A-Za-z0-9_.-]+$/;

const urlSafeChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
const entropyArb = fc.string({ unit: urlSafeChar, minLength: 16, maxLength: 64 });
const nodeIdArb = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
const epochArb = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });

describe('minting a provisioning token', () => {
  it('encodes the node, the epoch and the entropy, URL-safe', () => {
    const token = mintToken('4y3h7n', 3, ENTROPY);
    assert.equal(token, `${Buffer.from('4y3h7n').toString('base64url')}.3.${ENTROPY}`);
    assert.match(token, URL_SAFE);
    assert.match(mintToken('node with spaces/and slashes?', 1, ENTROPY), URL_SAFE);
  });

  it('gives back the node and epoch when parsed, for any node id, epoch and entropy', () => {
    fc.assert(
      fc.property(nodeIdArb, epochArb, entropyArb, (nodeId, epoch, entropy) => {
        const token = mintToken(nodeId, epoch, entropy);
        assert.match(token, URL_SAFE);
        assert.deepEqual(parseToken(token), { nodeId, epoch });
      }),
      { numRuns: 500 },
    );
  });

  it('never gives two different (node, epoch) pairs the same token, whatever the entropy', () => {
    fc.assert(
      fc.property(nodeIdArb, epochArb, nodeIdArb, epochArb, entropyArb, (nodeA, epochA, nodeB, epochB, entropy) => {
        fc.pre(nodeA !== nodeB || epochA !== epochB);
        assert.notEqual(mintToken(nodeA, epochA, entropy), mintToken(nodeB, epochB, entropy));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an epoch that is not a positive safe integer', () => {
    for (const epoch of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      assert.throws(() => mintToken('n1', epoch, ENTROPY), RangeError, String(epoch));
    }
  });

  it('refuses entropy that is not 16-64 URL-safe characters', () => {
    for (const entropy of ['', 'short', 'x'.repeat(65), 'has+plus/and=equals1', 'has a space in it 0']) {
      assert.throws(() => mintToken('n1', 1, entropy), RangeError, entropy);
    }
  });

  it('for any string at all as node id, either refuses it or routes the token back to exactly that string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), epochArb, entropyArb, (nodeId, epoch, entropy) => {
        let token: string;
        try {
          token = mintToken(nodeId, epoch, entropy);
        } catch (error) {
          assert.ok(error instanceof RangeError);
          return;
        }
        assert.deepEqual(parseToken(token), { nodeId, epoch });
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a node id it could not carry faithfully: empty, or not well-formed text', () => {
    // '\uD800' (a lone surrogate) would encode exactly like '\uFFFD': two nodes, one token prefix.
    for (const nodeId of ['', '\uD800', 'abc\uDC00']) {
      assert.throws(() => mintToken(nodeId, 1, ENTROPY), RangeError, JSON.stringify(nodeId));
    }
  });
});

describe('parsing a provisioning token', () => {
  const node = Buffer.from('4y3h7n').toString('base64url');

  it('returns null for anything that is not a well-formed token', () => {
    const malformed = {
      'a consumer instance id from elsewhere': 'i-0123456789abcdef',
      'too few parts': `${node}.1`,
      'too many parts': `${node}.1.${ENTROPY}.x`,
      'an empty node part': `.1.${ENTROPY}`,
      'epoch 0': `${node}.0.${ENTROPY}`,
      'an epoch with a leading zero': `${node}.01.${ENTROPY}`,
      'a negative epoch': `${node}.-1.${ENTROPY}`,
      'an epoch in exponent form': `${node}.1e3.${ENTROPY}`,
      'an epoch beyond the safe integers': `${node}.90071992547409921.${ENTROPY}`,
      'short entropy': `${node}.1.abc`,
      'entropy with characters that are not URL-safe': `${node}.1.${ENTROPY}+/`,
      'a padded node part': `${Buffer.from('a').toString('base64')}.1.${ENTROPY}`,
      'a node part in a non-canonical encoding': `YR.1.${ENTROPY}`,
      'a node part that is not UTF-8': `_w.1.${ENTROPY}`,
    };
    for (const [what, token] of Object.entries(malformed)) assert.equal(parseToken(token), null, what);
  });

  it('accepts the largest epoch a token can be minted with', () => {
    assert.deepEqual(parseToken(mintToken('n1', Number.MAX_SAFE_INTEGER, ENTROPY)), { nodeId: 'n1', epoch: Number.MAX_SAFE_INTEGER });
  });

  it('never throws, whatever string it is given', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (text) => {
        const parsed = parseToken(text);
        if (parsed) assert.equal(mintToken(parsed.nodeId, parsed.epoch, text.split('.')[2]), text, 'a token that parses is exactly the one minted for it');
      }),
      { numRuns: 500 },
    );
  });
});
