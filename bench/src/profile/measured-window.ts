import { renameSync, writeFileSync } from 'node:fs';

/**
 * A preload's measured window, opened and closed by SIGWINCH (a signal a server without a
 * terminal never gets otherwise; SIGUSR2 stops the ledger): the first signal calls `open`,
 * the next `close`, and so on.
 */
export const onMeasuredWindow = (open: () => void, close: () => void): void => {
  let measuring = false;
  process.on('SIGWINCH', () => {
    measuring = !measuring;
    if (measuring) open();
    else close();
  });
};

/** Writes `text` to `file` whole or not at all: the profiling tool reads the file as soon as it appears. */
export const writeWhole = (file: string, text: string): void => {
  writeFileSync(`${file}.partial`, text);
  renameSync(`${file}.partial`, file);
};
