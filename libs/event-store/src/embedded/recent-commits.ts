import type { RecordedEvent } from '../envelope';
import type { AppendRequest } from './append-request';
import { toRecordedEvent } from './event-row';
import type { WrittenBatch } from './sqlite-batch-writer';

/**
 * The events this store handle committed last, as its live subscriptions would read them
 * back from the file. After each commit every subscription (the ledger has three) asks for
 * the events after the last one it saw; reading them back cost more than anything else a
 * single command does after its commit (issue 16), since the read connection first reloads
 * its cache after the writer's transaction. The writer already knows each event's position,
 * revision and stamp, so they are handed out from here.
 *
 * Exact, never a guess: positions are dense (rowids of committed rows, none ever deleted),
 * so the events held here are the whole log between their first and last position only
 * while each commit began right after the previous one. When another process appended in
 * between, what is held is dropped and that commit starts afresh; a read that does not
 * start inside what is held, or that starts after it (another process may have appended
 * since), goes to the file. Idempotent retries stored nothing and are not held.
 */
export class RecentCommits {
  private events: RecordedEvent[] = [];

  /** `capacity`: at least this many of the newest events are kept (a subscriber further behind reads the file). */
  constructor(private readonly capacity: number) {}

  /** Takes a committed batch's written events, built exactly as a read of their rows builds them. */
  remember(requests: readonly AppendRequest[], batch: WrittenBatch): void {
    batch.outcomes.forEach((outcome, index) => {
      if (!outcome.ok || !outcome.value.written) return;
      const { events, stream } = requests[index];
      const firstPosition = outcome.value.position - events.length + 1;
      const firstRevision = outcome.value.nextExpectedRevision - events.length + 1;
      const last = this.events[this.events.length - 1];
      if (last && last.position + 1 !== firstPosition) this.events = [];
      events.forEach((event, offset) =>
        this.events.push(
          toRecordedEvent({
            position: firstPosition + offset,
            event_id: event.id,
            stream,
            revision: firstRevision + offset,
            type: event.type,
            data: event.data,
            metadata: event.metadata,
            recorded_at: batch.recordedAt,
          }),
        ),
      );
    });
    if (this.events.length > 2 * this.capacity) this.events = this.events.slice(-this.capacity);
  }

  /**
   * Up to `maxCount` events after `afterPosition` if the next one is held here, else
   * undefined (read the file). The events are shared: callers must not mutate them.
   */
  after(afterPosition: number, maxCount: number): RecordedEvent[] | undefined {
    if (this.events.length === 0) return undefined;
    const start = afterPosition + 1 - this.events[0].position;
    if (start < 0 || start >= this.events.length) return undefined;
    return this.events.slice(start, start + maxCount);
  }
}
