import type { ParseArgsConfig } from 'node:util';

/** One CLI sub-command. Each lives in its own file under commands/ and is listed in main.ts. */
export interface CliCommand {
  name: string;
  /** One line for `ledger-cli help`. */
  summary: string;
  /** Full usage text for `ledger-cli help <name>`. */
  usage: string;
  /** Every option it takes: string options need a value, boolean ones take none (node:util parseArgs, strict). */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Folds the whole log (rebuild, verify): run in a Node process with a bigger young generation (bulk-heap.ts). */
  foldsTheLog?: true;
  /** Returns the process exit code. */
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal (progress bars only then). */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  /** Writes to stderr without a newline (progress bars redraw one line). */
  errRaw?(text: string): void;
  /** Large outputs (export) write here, waiting when the reader is slower; out() is used when absent. */
  stdout?: NodeJS.WritableStream;
}

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string | true>;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}
