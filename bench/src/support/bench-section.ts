/**
 * A section of the benchmark: one run measures a few named figures. The runner repeats
 * it (--runs N) and reports each figure's median with its spread.
 */
export interface Measurement {
  /** Stable id, e.g. `append.64-clients`; targets and other sections refer to it. */
  key: string;
  label: string;
  value: number;
  unit: string;
}

/** A bound on a figure's median: at least, or at most, a value. */
export type Target = { key: string; why: string } & ({ atLeast: number; atMost?: never } | { atMost: number; atLeast?: never });

export interface BenchOptions {
  runs: number;
  /** How long each timed HTTP load lasts. */
  httpSeconds: number;
  log(message: string): void;
}

export interface BenchSection {
  name: string;
  description: string;
  targets?: readonly Target[];
  /** One run; called `runs` times. */
  run(options: BenchOptions): Promise<Measurement[]>;
}
