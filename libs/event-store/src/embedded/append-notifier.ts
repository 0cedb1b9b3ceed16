/**
 * In-process wake-ups for live subscriptions: the store calls notify() after each
 * committed batch, so a subscriber on the same handle sees new events at once instead
 * of at its next poll. Appends by other handles or processes are found by polling.
 */
export class AppendNotifier {
  private listeners = new Set<() => void>();

  /** Calls `listener` once, at the next notify(). Returns a function that cancels it. */
  once(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    const listeners = this.listeners;
    this.listeners = new Set();
    listeners.forEach((listener) => listener());
  }
}
