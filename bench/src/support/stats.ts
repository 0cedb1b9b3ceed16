/** Order statistics over measured values (runs, or request latencies). */

export const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** The p-th percentile (0-100) by nearest rank; NaN for no values. */
export const percentile = (values: readonly number[], p: number, alreadySorted = false): number => {
  if (values.length === 0) return NaN;
  const ordered = alreadySorted ? values : sorted(values);
  const rank = Math.ceil((p / 100) * ordered.length);
  return ordered[Math.min(ordered.length - 1, Math.max(0, rank - 1))];
};

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return NaN;
  const ordered = sorted(values);
  const middle = ordered.length >> 1;
  return ordered.length % 2 ? ordered[middle] : (ordered[middle - 1] + ordered[middle]) / 2;
};

export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number[];
}

export const spread = (runs: readonly number[]): Spread => ({ median: median(runs), min: Math.min(...runs), max: Math.max(...runs), runs: [...runs] });
