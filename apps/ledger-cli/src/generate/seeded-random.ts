/**
 * A small seeded generator (mulberry32), so a generated log is reproducible from its
 * seed: the same seed gives the same histories, tokens and ids, run after run.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** In [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An exponentially distributed gap with this mean: arrivals of a Poisson process. */
  gap(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  private static readonly ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  /** URL-safe text of this length (token entropy, keys). */
  text(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += SeededRandom.ALPHABET[this.below(64)];
    return out;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += '0123456789abcdef'[this.below(16)];
    return out;
  }

  /**
   * A version-7-shaped UUID: the time first, so ids written in time order land at the
   * end of the store's unique index instead of at random pages of it.
   */
  uuid(timeMs: number): string {
    const h = Math.floor(timeMs).toString(16).padStart(12, '0').slice(-12) + this.hex(20);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${h.slice(13, 16)}-${'89ab'[this.below(4)]}${h.slice(17, 20)}-${h.slice(20)}`;
  }
}
