import { closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The ledger's files hold the whole history (every consumer, owner, MAC and address): they
 * are for the user the ledger runs as, as PostgreSQL insists on for its data directory.
 * Directories are created 0700, files 0600. SQLite creates a new database file 0644 and its
 * -wal, -shm and -journal files with the main file's mode, so creating the main file
 * first, empty and 0600 (an empty file is an empty database), keeps all of them private.
 */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and its missing parents) 0700; an existing one is left as it is (see openToOthers). */
export const ensurePrivateDirectory = (dir: string): void => {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
};

/** Creates `file` empty and 0600 if it does not exist yet; an existing one is left as it is. */
export const ensurePrivateFile = (file: string): void => {
  if (file === ':memory:' || file === '') return;
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
};

/**
 * The directories given, and the files directly in them, that others than their owner may
 * read, write or enter (any group or other permission bit), each with its mode in octal.
 */
export const openToOthers = (dirs: readonly string[]): { path: string; mode: string }[] => {
  const found: { path: string; mode: string }[] = [];
  const check = (path: string) => {
    try {
      const mode = statSync(path).mode & 0o777;
      if ((mode & 0o077) !== 0) found.push({ path, mode: mode.toString(8).padStart(4, '0') });
    } catch {
      // Gone between listing and looking: nothing to warn about.
    }
  };
  for (const dir of new Set(dirs)) {
    check(dir);
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.sort()) check(join(dir, name));
  }
  return found;
};
