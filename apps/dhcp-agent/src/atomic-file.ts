import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';

/** Replaces `path` with `text` so a crash leaves the old content or the new, never a mix: temp file, fsync, rename. */
export const writeAtomically = (path: string, text: string): void => {
  const temp = `${path}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
};
