/**
 * Folded stream states kept between commands. Streams are append-only, so a cached
 * (revision, state) stays a correct prefix: the next command reads only the events
 * after it. Correctness never rests on the cache: the append's expected revision does.
 */
export interface CachedStreamState<State> {
  revision: number; // -1: the stream had no events
  state: State;
}

export class StreamStateCache<State> {
  private readonly entries = new Map<string, CachedStreamState<State>>();
  constructor(private readonly capacity = 10_000) {}

  get(stream: string): CachedStreamState<State> | undefined {
    const entry = this.entries.get(stream);
    if (entry) {
      // Re-insert to keep Map order as least-recently-used first.
      this.entries.delete(stream);
      this.entries.set(stream, entry);
    }
    return entry;
  }

  set(stream: string, entry: CachedStreamState<State>): void {
    const current = this.entries.get(stream);
    if (current && current.revision > entry.revision) return;
    this.entries.delete(stream);
    this.entries.set(stream, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
