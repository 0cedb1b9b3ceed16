import type { FromMainThread } from './audit-index-worker';

/**
 * What a rebuild's main thread has posted to its audit-index thread and the thread has not
 * taken yet, in characters. The main thread posts without waiting (it folds meanwhile) and
 * waits before its next page while more than a bound is queued, so that a thread held up (a
 * server beside the rebuild holding the write lock, a slow disk) cannot make the fold of a
 * big ledger fill memory with pages' fields and snapshots, a few MB each.
 */
export class QueuedForThread {
  /** Each message's size, from the first the thread has not taken (which is message number `first`). */
  private sizes: number[] = [];
  private first = 0;
  private chars = 0;

  /** `taken`: one Int32 the thread sets to the number of messages it has taken. */
  constructor(private readonly taken: Int32Array) {}

  posted(message: FromMainThread): void {
    const chars = charsOf(message);
    this.sizes.push(chars);
    this.chars += chars;
  }

  /** Characters posted and not taken yet. */
  get queuedChars(): number {
    const taken = Atomics.load(this.taken, 0);
    if (taken > this.first) {
      const gone = this.sizes.splice(0, taken - this.first);
      for (const chars of gone) this.chars -= chars;
      this.first = taken;
    }
    return this.chars;
  }
}

/** About what a message holds, in characters (its strings; numbers count for nothing). */
const charsOf = (message: FromMainThread): number => {
  if ('fields' in message) return message.fields.reduce((chars, part) => chars + part.length, 0);
  if (!('snapshot' in message)) return 0;
  const { changed, gone, meta } = message.snapshot;
  let chars = meta.length;
  for (const chunks of changed.values()) for (const [keys, bodies] of chunks) chars += keys.length + bodies.length;
  for (const keys of gone.values()) for (const key of keys) chars += key.length;
  return chars;
};
