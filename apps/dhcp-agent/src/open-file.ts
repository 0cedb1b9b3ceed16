import { openSync } from 'node:fs';

/** Opens a lease file to read; null when it does not exist (yet, or any more). */
export const tryOpen = (path: string): number | null => {
  try {
    return openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/** Why a lease file cannot be read, in words an operator acts on. */
export const describeFileError = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied): run the agent as a user that can read it';
  if (code === 'EISDIR') return 'is a directory, not a lease file';
  return error instanceof Error ? error.message : String(error);
};
