import type { RecordedEvent } from '@ledger/event-store';

export interface FlushOptions {
  /** Wait for the write lock if another connection holds it (default), or give up at once. */
  wait?: boolean;
  /**
   * Do at most one bounded step of the checkpoint's work (a timed flush on the event loop):
   * a save too big for one step is written over several, and checkpointWorkPending says
   * more is due. Without it (a stop, a promotion), the whole of it is done at once.
   */
  step?: boolean;
}

/** Anything folded from the ordered log, a page at a time: an in-memory view, an index in tables. */
export interface Projector {
  readonly name: string;
  /** The last position folded; events at or below it are skipped, so replays are harmless. */
  readonly position: number;
  applyPage(events: readonly RecordedEvent[]): void;
  /**
   * Makes what was folded durable with its checkpoint (a no-op for projectors that write as
   * they fold). With `wait: false` it saves nothing and answers false if another connection
   * holds the write lock (writeUnlessLocked), rather than sleep on it; else it answers true.
   */
  flush(options?: FlushOptions): boolean;
  /** Whether a flush with `step` left work for the next one (a full save written a step at a time); absent: never. */
  checkpointWorkPending?(): boolean;
}

/** How to rebuild a projector from position 0 beside the live one, and swap it in. */
export interface ProjectorRebuild<P extends Projector> {
  /** A new, empty projector whose writes nobody reads yet. */
  fresh(): P;
  /** Makes `fresh` the one queries read, atomically; called once it has caught up with the live one. */
  promote(fresh: P): void;
}
