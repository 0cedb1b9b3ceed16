import assert from 'node:assert/strict';
import type { Decider, Decision, RefusalCode } from '../core';

/**
 * Given/when/then for a decider, so a spec reads as the rule it pins:
 *
 *   specFor(nodeDecider).given([nodeEnlisted()]).when(acquireNode()).then([nodeAcquired()]);
 *
 * `given` folds past events into state, `when` decides one command against it, and
 * each `then...` asserts on the decision. The assertions chain, e.g.
 * `.then([...]).thenReplies({ status: 'allocated' })`.
 */
export interface DecisionAssertions<Event, Reply> {
  /** The decision itself, for checks the vocabulary below does not cover. */
  readonly decision: Decision<Event, Reply>;
  /** The reply of an accepted decision (fails the test if it was refused). */
  readonly reply: Reply;
  /** Accepted, with exactly these events in this order. */
  then(expectedEvents: Event[]): DecisionAssertions<Event, Reply>;
  /** Accepted with no events: the command asked for what is already so. */
  thenNothingHappens(): DecisionAssertions<Event, Reply>;
  /** Accepted, and the reply has (at least) these fields. */
  thenReplies(expectedReply: Partial<Reply>): DecisionAssertions<Event, Reply>;
  /** Refused with this code and, if given, (at least) these details. */
  thenRefuses(code: RefusalCode, expectedDetails?: Record<string, unknown>): DecisionAssertions<Event, Reply>;
}

const pick = (from: object | undefined, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((key) => from !== undefined && key in from).map((key) => [key, (from as Record<string, unknown>)[key]]));

const accepted = <Event, Reply>(decision: Decision<Event, Reply>): { events: Event[]; reply: Reply } => {
  if (decision.outcome === 'refused') {
    const { code, message, details } = decision.refusal;
    assert.fail(`expected the command to be accepted, but it was refused ${code}: ${message} ${JSON.stringify(details ?? {})}`);
  }
  return decision;
};

const assertionsOn = <Event, State, Reply>(
  decider: Decider<unknown, Event, State, Reply>,
  state: State,
  decision: Decision<Event, Reply>,
): DecisionAssertions<Event, Reply> => {
  const self: DecisionAssertions<Event, Reply> = {
    decision,
    get reply() {
      return accepted(decision).reply;
    },
    then(expectedEvents) {
      const { events } = accepted(decision);
      assert.deepEqual(events, expectedEvents);
      // The events a decision emits must fold: a decider whose evolve cannot take its own events is broken.
      events.reduce(decider.evolve, state);
      return self;
    },
    thenNothingHappens() {
      const { events } = accepted(decision);
      assert.deepEqual(events, [], 'expected the command to be accepted with no events');
      return self;
    },
    thenReplies(expectedReply) {
      const { reply } = accepted(decision);
      assert.deepEqual(pick(reply as object, Object.keys(expectedReply)), expectedReply);
      return self;
    },
    thenRefuses(code, expectedDetails) {
      if (decision.outcome === 'accepted') {
        assert.fail(`expected the command to be refused ${code}, but it was accepted with ${JSON.stringify(decision.events)}`);
      }
      assert.equal(decision.refusal.code, code, `refused ${decision.refusal.code} (${decision.refusal.message}), expected ${code}`);
      assert.ok(decision.refusal.message.length > 0, 'a refusal says why in words');
      if (expectedDetails) assert.deepEqual(pick(decision.refusal.details, Object.keys(expectedDetails)), expectedDetails);
      return self;
    },
  };
  return self;
};

export const specFor = <Command, Event, State, Reply>(decider: Decider<Command, Event, State, Reply>) => ({
  given: (events: Event[] = []) => ({
    when: (command: Command): DecisionAssertions<Event, Reply> => {
      const state = events.reduce(decider.evolve, decider.initialState());
      return assertionsOn(decider as Decider<unknown, Event, State, Reply>, state, decider.decide(command, state));
    },
  }),
});

/**
 * A story: commands decided one after another against the state so far, accepted
 * events folded in and refused commands changing nothing, as the command handler does.
 * Each step is asserted with the same vocabulary as `specFor`.
 */
export const storyFor = <Command, Event, State, Reply>(decider: Decider<Command, Event, State, Reply>) => {
  let state = decider.initialState();
  const log: Event[] = [];
  return {
    get state(): State {
      return state;
    },
    get events(): readonly Event[] {
      return log;
    },
    when(command: Command): DecisionAssertions<Event, Reply> {
      const before = state;
      const decision = decider.decide(command, before);
      if (decision.outcome === 'accepted') {
        log.push(...decision.events);
        state = decision.events.reduce(decider.evolve, before);
      }
      return assertionsOn(decider as Decider<unknown, Event, State, Reply>, before, decision);
    },
  };
};
