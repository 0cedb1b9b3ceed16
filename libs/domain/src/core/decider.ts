import type { Decision } from './decision';
import type { RefusalCode } from './refusal-code';

/**
 * An aggregate as plain functions over plain data (the decider pattern):
 * the state is only ever the fold of the stream's events.
 */
export interface Decider<Command, Event, State, Reply, Code extends string = RefusalCode> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Decision<Event, Reply, Code>;
}

/** Folds events over the initial state. */
export const foldEvents = <Event, State>(decider: Pick<Decider<unknown, Event, State, unknown>, 'initialState' | 'evolve'>, events: readonly Event[]): State =>
  events.reduce(decider.evolve, decider.initialState());
