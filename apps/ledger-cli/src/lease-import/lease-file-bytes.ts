import { closeSync, createReadStream, openSync, readSync, type ReadStream } from 'node:fs';
import { constants, createGunzip, gunzipSync } from 'node:zlib';
import type { Readable } from 'node:stream';

import { NotALeaseFile } from '@ledger/lease-files';

export { NotALeaseFile };

const isGzip = (bytes: Buffer) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

const readHead = (path: string, length: number): Buffer => {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    return buffer.subarray(0, readSync(fd, buffer, 0, length, 0));
  } finally {
    closeSync(fd);
  }
};

/**
 * The first 4 KB of a lease file's text, gunzipped when the file is gzip (told by its
 * magic bytes, not its name: rotated lease files are usually compressed). Lease files are
 * text: NUL bytes in that text mean an executable or other binary, refused here.
 */
export const leaseFileHead = (path: string): string => {
  const raw = readHead(path, 64 * 1024);
  let text = raw;
  if (isGzip(raw)) {
    try {
      // Only the file's beginning was read: flush what it holds instead of failing on the truncated stream.
      text = gunzipSync(raw, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch (error) {
      throw new NotALeaseFile(`${path} starts like gzip but is not readable gzip data (${(error as Error).message})`);
    }
  }
  const head = text.subarray(0, 4096);
  if (head.includes(0))
    throw new NotALeaseFile(`${path} is not a lease file: it holds binary data (NUL bytes in its first ${head.length.toLocaleString('en-US')} bytes)`);
  return head.toString('utf8');
};

/** The file's text as a stream (gunzipped if need be), and the raw file stream whose bytesRead the progress bar shows. */
export const openLeaseFileText = (path: string): { text: Readable; raw: ReadStream } => {
  const raw = createReadStream(path);
  if (!isGzip(readHead(path, 2))) return { text: raw, raw };
  const gunzip = createGunzip();
  raw.on('error', (error) => gunzip.destroy(error));
  gunzip.on('error', () => raw.destroy());
  return { text: raw.pipe(gunzip), raw };
};
