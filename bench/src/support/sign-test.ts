/**
 * Whether measurements put a target's figure on its side of the line more often than chance
 * would: the exact one-sided sign test. Under the hypothesis that the figure's median sits on
 * the line, each measurement falls on the target's side with probability 1/2, so the count
 * that does is binomial(n, 1/2); `p` is the chance of at least that many. A measurement on
 * the line itself meets an "at least" or "at most" target, and counts as meeting it.
 */
export interface SignTest {
  measurements: number;
  meeting: number;
  /** P(at least `meeting` of `measurements` meet the target | its median is on the line). */
  p: number;
}

export type Line = { atLeast: number } | { atMost: number };

export const meetsLine = (value: number, line: Line): boolean => ('atLeast' in line ? value >= line.atLeast : value <= line.atMost);

/** P(X >= k) for X ~ binomial(n, 1/2), summed in logs so a few hundred measurements do not overflow. */
export const binomialHalfTail = (n: number, k: number): number => {
  if (k <= 0) return 1;
  if (k > n) return 0;
  let logChoose = 0; // log C(n, 0)
  let tail = 0;
  for (let i = 0; i <= n; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    if (i >= k) tail += Math.exp(logChoose - n * Math.LN2);
  }
  return Math.min(1, tail);
};

export const signTest = (values: readonly number[], line: Line): SignTest => {
  const meeting = values.filter((value) => meetsLine(value, line)).length;
  return { measurements: values.length, meeting, p: binomialHalfTail(values.length, meeting) };
};
