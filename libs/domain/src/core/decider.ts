import type { Decision } from './decision';

/**
 * An aggregate as plain functions over plain data (the decider pattern):
 * the state is only ever the fold of the stream's events.
 */
export interface Decider<Command, Event, State, Reply> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Decision<Event, Reply>;
}

/** Folds events over the initial state. */
export const foldEvents = <Event, State>(
  decider: Pick<Decider<unknown, Event, State, unknown>, 'initialState' | 'evolve'>,
  events: readonly Event[],
): State => events.reduce(decider.evolve, decider.initialState());
