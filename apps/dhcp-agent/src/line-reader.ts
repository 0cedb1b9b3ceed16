import { readSync } from 'node:fs';

/** No line of a lease file comes near this; a longer one is cut here, so memory stays bounded whatever the file holds. */
export const MAX_LINE_BYTES = 16 * 1024;
/** Read at most this much per look at the file, so a huge backlog is posted in steps. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

export interface LinesRead {
  lines: string[];
  /** The offset just past the last complete line: where the next read starts. */
  offset: number;
}

/**
 * The complete lines of `fd` from `offset`: a line the server is still writing (no newline
 * yet) is left for the next read. A run of more than MAX_READ_BYTES without a newline is
 * garbage: it is consumed as one line, cut to MAX_LINE_BYTES, for the parser to refuse.
 */
export const readCompleteLines = (fd: number, offset: number, size: number): LinesRead => {
  const length = Math.min(size - offset, MAX_READ_BYTES);
  if (length <= 0) return { lines: [], offset };
  const buffer = Buffer.alloc(length);
  const read = readSync(fd, buffer, 0, length, offset);
  const bytes = buffer.subarray(0, read);
  const last = bytes.lastIndexOf(10);
  if (last === -1) {
    if (read < MAX_READ_BYTES) return { lines: [], offset };
    return { lines: [bytes.toString('utf8', 0, MAX_LINE_BYTES)], offset: offset + read };
  }
  const lines: string[] = [];
  let start = 0;
  for (let end = bytes.indexOf(10, start); end !== -1 && end <= last; end = bytes.indexOf(10, start)) {
    lines.push(bytes.toString('utf8', start, Math.min(end, start + MAX_LINE_BYTES)));
    start = end + 1;
  }
  return { lines, offset: offset + last + 1 };
};

/** The first line of a file (Kea's CSV header), for a parser resuming in the middle of it. */
export const readFirstLine = (fd: number): string | null => {
  const buffer = Buffer.alloc(MAX_LINE_BYTES);
  const read = readSync(fd, buffer, 0, MAX_LINE_BYTES, 0);
  const end = buffer.subarray(0, read).indexOf(10);
  return end === -1 ? null : buffer.toString('utf8', 0, end);
};
