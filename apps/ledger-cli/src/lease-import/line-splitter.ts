/** No line of a lease file comes near this; a longer one is garbage and is cut here, so memory stays bounded. */
export const MAX_LINE_BYTES = 16 * 1024;

/**
 * Splits a byte stream into lines on `\n` (a trailing `\r` is the parsers' business),
 * keeping at most MAX_LINE_BYTES of any line: readline holds a whole line however long,
 * so a 50 MB file without a newline cost hundreds of megabytes. UTF-8 never uses the
 * byte 0x0a inside a character, so splitting bytes before decoding is safe.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private kept = 0;

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      if (this.parts.length === 0) {
        // The common case, a whole line inside one chunk: decoded straight from it, no copy.
        this.onLine(chunk.toString('utf8', start, Math.min(end, start + MAX_LINE_BYTES)));
      } else {
        this.keep(chunk.subarray(start, end));
        this.flush();
      }
      start = end + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  end(): void {
    if (this.parts.length > 0) this.flush();
  }

  private keep(bytes: Buffer): void {
    const room = MAX_LINE_BYTES - this.kept;
    if (room <= 0 || bytes.length === 0) return;
    const taken = bytes.length > room ? bytes.subarray(0, room) : bytes;
    // Copied: the stream may reuse its chunk's memory.
    this.parts.push(Buffer.from(taken));
    this.kept += taken.length;
  }

  private flush(): void {
    const line = this.parts.length === 1 ? this.parts[0].toString('utf8') : Buffer.concat(this.parts).toString('utf8');
    this.parts = [];
    this.kept = 0;
    this.onLine(line);
  }
}
