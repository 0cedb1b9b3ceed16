import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RecentOutput } from './recent-output';

describe('RecentOutput', () => {
  it('holds exactly the last `limit` characters printed, however the chunks fall', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 60 }),
        fc.array(fc.nat(60)),
        (limit, chunks, readsAt) => {
          const output = new RecentOutput(limit);
          let printed = '';
          chunks.forEach((chunk, index) => {
            output.append(chunk);
            printed += chunk;
            if (readsAt.includes(index)) assert.equal(output.text, printed.slice(-limit));
          });
          assert.equal(output.text, printed.slice(-limit));
        },
      ),
    );
  });
});
