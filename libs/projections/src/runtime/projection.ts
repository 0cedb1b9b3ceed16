import type { RecordedEvent } from '@ledger/event-store';

/** A read model folded from the ordered log. `state` must be plain, JSON-serialisable data. */
export interface Projection<State extends { position: number }> {
  /** Names the checkpoint row; bump the version suffix when the state's shape changes. */
  readonly name: string;
  initialState(): State;
  apply(state: State, event: RecordedEvent): void;
}
