/**
 * In-process wake-ups for live subscriptions: the store calls notify() after each
 * committed batch, so a subscriber on the same handle sees new events at once instead
 * of at its next poll. Appends by other handles or processes are found by polling.
 */
export class AppendNotifier {
  private listeners = new Set<() => void>();
  private notified = 0;

  /** How many times notify() has run: a reader that saw the same number has seen every notified commit. */
  get sequence(): number {
    return this.notified;
  }

  /** Calls `listener` once, at the next notify(). Returns a function that cancels it. */
  once(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    this.notified += 1;
    const listeners = this.listeners;
    this.listeners = new Set();
    listeners.forEach((listener) => listener());
  }
}
