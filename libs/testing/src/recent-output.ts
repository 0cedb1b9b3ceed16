/**
 * The last `limit` characters a process printed, kept in chunks and joined only when read.
 * Appending by `(text + chunk).slice(-limit)` copies up to `limit` characters per chunk: at
 * one log line per request that was megabytes a second of copying in the test or bench
 * process, CPU the load generator took from the server it measures (the bare baseline logs
 * nothing, so only the ledger paid it).
 */
export class RecentOutput {
  private chunks: string[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  append(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    // Compacted at twice the limit, so each character is copied a bounded number of times.
    if (this.length > 2 * this.limit) this.compact();
  }

  get text(): string {
    this.compact();
    return this.chunks[0] ?? '';
  }

  private compact(): void {
    if (this.chunks.length <= 1 && this.length <= this.limit) return;
    const joined = this.chunks.join('');
    const kept = joined.length > this.limit ? joined.slice(-this.limit) : joined;
    this.chunks = [kept];
    this.length = kept.length;
  }
}
