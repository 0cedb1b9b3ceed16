/**
 * The formats the API document states are the server's own checks: a value matches the
 * document's pattern exactly when libs/domain's parser takes it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseIp, parseMac } from '@ledger/domain';
import { IPV4_SPELLING, MAC_PATTERN } from './value-formats';

const hex = fc.constantFrom(...'0123456789abcdefABCDEF'.split(''));
const octet = fc.tuple(hex, hex).map(([a, b]) => a + b);

describe('the address formats of the document', () => {
  it('MAC_PATTERN takes exactly what parseMac takes (unicast, not all-zero, one usual spelling)', () => {
    const spelled = fc.tuple(fc.array(octet, { minLength: 6, maxLength: 6 }), fc.constantFrom(':', '-', '.', '', ':-')).map(([octets, sep]) => {
      if (sep === '.') return `${octets[0]}${octets[1]}.${octets[2]}${octets[3]}.${octets[4]}${octets[5]}`;
      if (sep === ':-') return `${octets.slice(0, 3).join(':')}-${octets.slice(3).join('-')}`;
      return octets.join(sep);
    });
    const zeroOrGroup = fc.constantFrom('00:00:00:00:00:00', '0000.0000.0000', '000000000000', '01:00:5e:00:00:01', 'ff-ff-ff-ff-ff-ff');
    const pattern = new RegExp(MAC_PATTERN, 'u');
    fc.assert(
      fc.property(fc.oneof(spelled, zeroOrGroup, fc.string({ maxLength: 18 })), (text) => {
        assert.equal(pattern.test(text), 'mac' in parseMac(text), text);
      }),
      { numRuns: 2000 },
    );
  });

  it('IPV4_SPELLING takes exactly the dotted quads parseIp takes, leading zeros included', () => {
    const part = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.stringMatching(/^[0-9]{1,4}$/));
    const pattern = new RegExp(IPV4_SPELLING, 'u');
    fc.assert(
      fc.property(fc.array(part, { minLength: 3, maxLength: 5 }), (parts) => {
        const text = parts.join('.');
        assert.equal(pattern.test(text), 'ip' in parseIp(text) && !text.includes(':'), text);
      }),
      { numRuns: 2000 },
    );
  });
});
