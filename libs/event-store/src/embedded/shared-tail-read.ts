import type { RecordedEvent } from '../envelope';

/**
 * One read of the log's tail shared by every live subscription of a store handle. A commit
 * wakes them all at once (the ledger has three: ledger view, audit index, lease cascade),
 * and each would otherwise run the same query and parse the same rows. A read is reused
 * only for the same position and page size, while no commit has been notified since, and
 * within the same turn of the event loop (appends by other processes are not notified, so
 * a later poll must read again). The events are shared: subscribers must not mutate them.
 */
export class SharedTailRead {
  private last: { after: number; max: number; sequence: number; events: RecordedEvent[] } | null = null;

  constructor(private readonly readAfter: (afterPosition: number, maxCount: number) => RecordedEvent[]) {}

  read(afterPosition: number, maxCount: number, sequence: number): RecordedEvent[] {
    const last = this.last;
    if (last && last.after === afterPosition && last.max === maxCount && last.sequence === sequence) return last.events;
    const events = this.readAfter(afterPosition, maxCount);
    if (!last) setImmediate(() => (this.last = null));
    this.last = { after: afterPosition, max: maxCount, sequence, events };
    return events;
  }
}
