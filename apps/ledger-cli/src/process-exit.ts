/**
 * Exits with `code` once stdout and stderr have drained. Writes to a pipe are
 * asynchronous, so a plain process.exit() after a large report cuts it short; an empty
 * write's callback runs after every earlier write on that stream.
 */
export const exitAfterFlush = (code: number): void => {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
};

/** A reader that stops early (`ledger-cli export | head`) is not an error. */
export const exitQuietlyOnClosedPipe = (): void => {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => process.exit(error.code === 'EPIPE' ? 0 : 1));
  }
};
