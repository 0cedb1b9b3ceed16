import type { RecordedEvent } from '@ledger/event-store';
import type { CheckpointStore } from '../runtime/checkpoint-store';
import { cascadeStep } from './cascade-step';
import { initialCascadeState, type CascadeState } from './cascade-state';
import { LEASE_CASCADE_CHECKPOINT } from './lease-cascade-runner';

/** Reads the log's events after a position, a page at a time (empty at its end). */
export type PageAfter = (after: number) => RecordedEvent[] | Promise<RecordedEvent[]>;

/**
 * The lease cascade folded from the log by a rebuild, which carries out no release: so that
 * a ledger started after `ledger-cli rebuild` does not step through the whole log again
 * before it is ready. Every release the cascade asks for is a LeaseReleased (or a
 * LeaseExpired) of that lease later in the log once it is done (a lease ends no other way),
 * so the fold knows which are done. The checkpoint it gives stands at the log's end when all
 * are, else just before the first event whose releases the log does not show: the cascade
 * resumes there and asks for them again (each a no-op for a lease already released).
 */
export class CascadeFold {
  private readonly state: CascadeState = initialCascadeState();
  /** Leases whose release was asked for and is not in the log yet, with the position of the event that asked. */
  private readonly undone = new Map<string, number>();

  applyPage(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      for (const release of cascadeStep(this.state, event)) this.undone.set(release.leaseId, event.position);
      if (event.type === 'LeaseReleased' || event.type === 'LeaseExpired') this.undone.delete((event.data as { leaseId: string }).leaseId);
    }
  }

  get position(): number {
    return this.state.position;
  }

  /**
   * The checkpoint to save: the state at the end of the fold, or, with releases still undone,
   * the state folded again from the start up to just before the first event that asked for one.
   */
  async checkpoint(read: PageAfter): Promise<CascadeState> {
    if (this.undone.size === 0) return this.state;
    let firstUndone = Infinity;
    for (const position of this.undone.values()) firstUndone = Math.min(firstUndone, position);
    const before = initialCascadeState();
    for (let after = 0; ;) {
      const page = await read(after);
      if (page.length === 0) return before;
      for (const event of page) {
        if (event.position >= firstUndone) return before;
        cascadeStep(before, event);
      }
      after = page[page.length - 1].position;
    }
  }

  /**
   * Saves `state` as the cascade's checkpoint unless the one stored is further on (a ledger
   * running beside the rebuild got there first: its own is as good, and it keeps saving it).
   * Inside the caller's transaction.
   */
  static saveUnlessBehind(checkpoints: CheckpointStore, state: CascadeState, savedAt: Date): void {
    const stored = checkpoints.load<CascadeState>(LEASE_CASCADE_CHECKPOINT);
    if (stored !== null && stored.position >= state.position) return;
    checkpoints.save(LEASE_CASCADE_CHECKPOINT, state.position, state, savedAt);
  }
}
