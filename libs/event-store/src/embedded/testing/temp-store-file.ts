import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir holding one store file, for a test to open and remove. */
export interface TempStoreFile {
  file: string;
  remove(): Promise<void>;
}

export const tempStoreFile = async (label: string): Promise<TempStoreFile> => {
  const directory = await mkdtemp(join(tmpdir(), `ledger-${label}-`));
  return {
    file: join(directory, 'events.sqlite'),
    remove: () => rm(directory, { recursive: true, force: true }),
  };
};
