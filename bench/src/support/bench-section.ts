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

export interface Target {
  key: string;
  /** The median must be at least this. */
  atLeast: number;
  why: string;
}

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

/** Runs `work` until `ms` have passed; returns how many units it did and the seconds it took. */
export const timed = async (ms: number, work: (deadline: number) => Promise<number> | number): Promise<{ count: number; seconds: number }> => {
  const started = process.hrtime.bigint();
  const count = await work(Date.now() + ms);
  return { count, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
};
