import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { binomialHalfTail, signTest } from './sign-test';

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} against ${expected}`);

const choose = (n: number, k: number): number => {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
};

describe('the sign test the pooled bench results are judged by', () => {
  it('gives the exact binomial tail, also where the sum of terms is long', () => {
    for (const n of [1, 2, 11, 33, 60]) {
      for (let k = 0; k <= n; k++) {
        let exact = 0;
        for (let i = k; i <= n; i++) exact += choose(n, i);
        close(binomialHalfTail(n, k), exact / 2 ** n, `n=${n} k=${k}`);
      }
    }
    close(binomialHalfTail(11, 8), 232 / 2048, 'eight of eleven');
    assert.equal(binomialHalfTail(5, 6), 0);
  });

  it('counts a measurement on the line as meeting it, on either side of a target', () => {
    const atLeast = signTest([0.3, 0.31, 0.29], { atLeast: 0.3 });
    assert.deepEqual([atLeast.measurements, atLeast.meeting], [3, 2]);
    close(atLeast.p, 0.5, 'two of three');
    const atMost = signTest([1.5, 1.2, 1.7, 1.4], { atMost: 1.5 });
    assert.deepEqual([atMost.measurements, atMost.meeting], [4, 3]);
    close(atMost.p, 5 / 16, 'three of four');
  });

  it('stays a probability for a few hundred measurements all on one side', () => {
    const { p } = signTest(
      Array.from({ length: 400 }, () => 1),
      { atLeast: 0 },
    );
    assert.ok(p > 0 && p < 1e-100);
  });
});
