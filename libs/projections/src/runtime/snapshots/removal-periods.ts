/**
 * The trackers' past periods whose removals a writer keeps: a base as old as that (a CLI
 * rebuild's generation promoted under the server while the server took this many
 * snapshots of its own) still needs no read of its keys. Removals are few in the ledger
 * view: an allocation, a device, a lease record stays, with its ending.
 */
export const REMOVAL_PERIODS_KEPT = 64;

/** One past period of the trackers: the removals between two drains, by collection. */
interface DrainedPeriod {
  from: number;
  to: number;
  removed: Map<string, string[]>;
}

/**
 * The removals a SnapshotWriter's trackers reported, period by period (one a snapshot), so a
 * delta against an older base knows which keys went without reading the base's keys back.
 */
export class RemovalPeriods {
  /**
   * The position since which the trackers hold every removal (their last drain, or the start
   * of tracking); null: unknown (a drain rolled back).
   */
  private since: number | null = null;
  /** The removals of the trackers' last periods, oldest first, contiguous up to `since`: cleared with it. */
  private drained: DrainedPeriod[] = [];

  constructor(private readonly kept = REMOVAL_PERIODS_KEPT) {}

  /** Forgets every period: the trackers hold every removal since `since` (null: unknown). */
  restart(since: number | null): void {
    this.since = since;
    this.drained = [];
  }

  /**
   * The trackers' removals of the period that ends at `position` (`removed`) are kept for a
   * base older than this drain, if the period is known whole (`whole`: its trackers were the
   * ones at its start; a collection replaced wholesale loses keys no tracker saw go, and the
   * periods before it are no use).
   */
  ended(position: number, removed: Map<string, string[]>, whole: boolean): void {
    if (this.since !== null && whole) {
      this.drained.push({ from: this.since, to: position, removed });
      if (this.drained.length > this.kept) this.drained.splice(0, this.drained.length - this.kept);
    } else this.drained = [];
    this.since = position;
  }

  /** Whether every removal since `position` is known: the last drain is no later, or the periods kept reach back to it. */
  knownSince(position: number): boolean {
    return this.since !== null && (this.since <= position || (this.drained.length > 0 && this.drained[0].from <= position));
  }

  /** The removals of the periods kept that end after `position`, by collection (the current period's are not among them). */
  removedSince(position: number): Map<string, string[]> {
    const removed = new Map<string, string[]>();
    for (const period of this.drained) {
      if (period.to <= position) continue;
      for (const [field, keys] of period.removed) removed.set(field, [...(removed.get(field) ?? []), ...keys]);
    }
    return removed;
  }
}
