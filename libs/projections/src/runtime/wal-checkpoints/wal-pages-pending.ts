import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** Where the wal-index (the `-shm` file) keeps mxFrame and nBackfill: https://www.sqlite.org/walformat.html. */
const MX_FRAME = 16;
const N_BACKFILL = 96;
const HEADER_BYTES = 100;

/**
 * How many pages a WAL holds that are not in its database file yet, read from the
 * wal-index SQLite keeps beside it (`<file>-shm`, in the machine's byte order) without a
 * lock and without a checkpoint: the last frame written (mxFrame) less the frames copied
 * back (nBackfill). A torn read can be off for one look, which only moves a checkpoint by a
 * tick; a missing index (no WAL yet) holds nothing.
 */
export class WalPagesPending {
  private fd: number | null = null;
  private readonly header = Buffer.alloc(HEADER_BYTES);

  constructor(private readonly file: string) {}

  read(): number {
    try {
      this.fd ??= openSync(`${this.file}-shm`, 'r');
      if (readSync(this.fd, this.header, 0, HEADER_BYTES, 0) < HEADER_BYTES) return 0;
    } catch {
      this.close();
      return 0;
    }
    const u32 = (offset: number) => (endianness() === 'LE' ? this.header.readUInt32LE(offset) : this.header.readUInt32BE(offset));
    return Math.max(0, u32(MX_FRAME) - u32(N_BACKFILL));
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
