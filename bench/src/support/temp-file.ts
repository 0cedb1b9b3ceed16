import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh SQLite file path in the system temp dir (the same disk as the ledger's data here), removed by `done()`. */
export const tempDatabase = (label: string): { file: string; done(): void } => {
  const dir = mkdtempSync(join(tmpdir(), `ledger-bench-${label}-`));
  return { file: join(dir, 'bench.sqlite'), done: () => rmSync(dir, { recursive: true, force: true }) };
};
