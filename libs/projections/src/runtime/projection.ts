import type { RecordedEvent } from '@ledger/event-store';
import type { CollectionChanges } from './collection-changes';

/** A read model folded from the ordered log. `state` must be plain, JSON-serialisable data. */
export interface Projection<State extends { position: number }> {
  /** Names the checkpoint row; bump the version suffix when the state's shape changes. */
  readonly name: string;
  initialState(): State;
  /**
   * Folds one event into `state`, in place, and reports to `changes` every entity of a
   * collection it adds, changes or deletes: snapshots and checkpoints store what was
   * reported, so a change left unreported is missing from them (CollectionChanges).
   */
  apply(state: State, event: RecordedEvent, changes: CollectionChanges): void;
}
