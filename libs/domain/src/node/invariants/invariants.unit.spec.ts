import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseToken } from '../../provisioning-token';
import { at } from '../../testing';
import type { NodeAcquired } from '../node-events';
import { nodeDecider } from '../node-decider';
import { liveReservation, type NodeReply, type NodeState } from '../node-state';
import { historyArb, narrate, resend, runHistory, tokenNamedBy, type Transition } from './command-history';

/**
 * The design's invariants as properties: whatever sequence of commands arrives (over a few
 * nodes and consumers, with tokens that are live, stale, another node's or made up,
 * reservations with the right key, a wrong one or none, requestIds fresh or reused, time
 * moving on so reservations expire, observations from before and after each allocation),
 * each invariant holds after every single step. See command-history.ts for the generator.
 */
const NUM_RUNS = 500;

const forEveryHistory = (check: (transitions: Transition[]) => void): void =>
  fc.assert(
    fc.property(historyArb(), (steps) => {
      const transitions = runHistory(steps);
      try {
        check(transitions);
      } catch (error) {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\nin this history:\n${narrate(transitions)}`, { cause: error });
      }
    }),
    { numRuns: NUM_RUNS, includeErrorInReport: true },
  );

const eventsOf = (t: Transition) => (t.decision.outcome === 'accepted' ? t.decision.events : []);
const acquiredIn = (t: Transition) => eventsOf(t).filter((event): event is NodeAcquired => event.type === 'NodeAcquired');
const requestOf = (t: Transition) => ('request' in t.command ? t.command.request : null);
const nowOf = (t: Transition) => ('now' in t.command ? t.command.now : null);

describe('invariant 1: a node has at most one live allocation', () => {
  it("holds after every step, and its one unended token is the live allocation's", () => {
    forEveryHistory((transitions) => {
      for (const t of transitions) {
        for (const state of Object.values(t.world)) {
          const unended = [...state.issuedTokens.entries()].filter(([, issued]) => issued.ending === null).map(([token]) => token);
          assert.deepEqual(unended, state.allocation ? [state.allocation.token] : []);
        }
        if (acquiredIn(t).length > 0) assert.equal(t.before.allocation, null, 'acquired a node that was allocated');
        assert.ok(acquiredIn(t).length <= 1, 'one decision, at most one allocation');
      }
    });
  });
});

describe('invariant 2: no command with a token other than the live one changes anything', () => {
  it('such a command is refused, or accepted with no events only as the replay of its own request', () => {
    forEveryHistory((transitions) => {
      for (const t of transitions) {
        const token = tokenNamedBy(t.command);
        if (token === null || token === t.before.allocation?.token) continue;
        assert.equal(t.after, t.before);
        if (t.decision.outcome === 'accepted') {
          assert.deepEqual(t.decision.events, []);
          const request = requestOf(t);
          assert.ok(request && t.before.requests.get(request.requestId)?.fingerprint === request.fingerprint, 'accepted a stale token without replaying');
        } else if (t.before.issuedTokens.get(token)) {
          // A token this node issued: the holder is told to forget the machine (unless its requestId was misused).
          assert.ok(['stale_token', 'request_conflict'].includes(t.decision.refusal.code), t.decision.refusal.code);
          if (t.decision.refusal.code === 'stale_token') assert.match(String(t.decision.refusal.details?.action), /forget this machine/);
        } else {
          assert.ok(['not_found', 'request_conflict'].includes(t.decision.refusal.code), t.decision.refusal.code);
        }
      }
    });
  });

  it("no event ever names a token other than the live allocation's (or the one just minted)", () => {
    forEveryHistory((transitions) => {
      for (const t of transitions) {
        for (const event of eventsOf(t)) {
          if (event.type !== 'NodeAcquired' && 'token' in event.data) assert.equal(event.data.token, t.before.allocation?.token, event.type);
        }
      }
    });
  });
});

describe('invariant 3: every issued token is unique across all nodes and all time', () => {
  it("no token is minted twice, each node's epochs go 1, 2, 3..., and each token parses back to its node and epoch", () => {
    forEveryHistory((transitions) => {
      const minted = new Set<string>();
      const lastEpoch: Record<string, number> = {};
      for (const t of transitions) {
        for (const { data } of acquiredIn(t)) {
          assert.ok(!minted.has(data.token), `token ${data.token} minted twice`);
          minted.add(data.token);
          assert.equal(data.nodeId, t.command.nodeId);
          assert.equal(data.epoch, (lastEpoch[data.nodeId] ?? 0) + 1);
          lastEpoch[data.nodeId] = data.epoch;
          assert.deepEqual(parseToken(data.token), { nodeId: data.nodeId, epoch: data.epoch });
        }
        for (const [nodeId, state] of Object.entries(t.world)) {
          const epochs = [...state.issuedTokens.values()].map((issued) => issued.epoch).sort((a, b) => a - b);
          assert.deepEqual(
            epochs,
            Array.from({ length: lastEpoch[nodeId] ?? 0 }, (_, i) => i + 1),
          );
          assert.equal(state.epoch, lastEpoch[nodeId] ?? 0);
        }
      }
    });
  });
});

describe('invariant 6: a reserved node can be acquired only with its key while the reservation holds', () => {
  it('an acquire of a held node presented its key and consumed that reservation, and nothing else ends the hold', () => {
    forEveryHistory((transitions) => {
      for (const t of transitions) {
        const now = nowOf(t);
        const held = now === null ? null : liveReservation(t.before, now);
        if (!held || t.decision.outcome === 'refused') continue;
        for (const { data } of acquiredIn(t)) {
          assert.equal(t.command.type === 'AcquireNode' && t.command.reservationKeyHash, held.keyHash, 'acquired a held node without its key');
          assert.equal(data.reservationId, held.reservationId);
        }
        if (t.after.reservation?.reservationId !== held.reservationId) {
          const presentedKey =
            (t.command.type === 'AcquireNode' && t.command.reservationKeyHash === held.keyHash) ||
            (t.command.type === 'CancelReservation' && t.command.keyHash === held.keyHash);
          assert.ok(presentedKey, `${t.command.type} ended a live reservation without its key`);
        }
      }
    });
  });
});

/**
 * A replayed answer is the first answer, marked `replayed: true`, with the state its token
 * has now (issue 10, item 7): live while the token is the node's live one, else how it ended.
 */
const assertReplayOf = (reply: NodeReply, original: NodeReply, state: NodeState) => {
  const { replayed, live, ending, ...first } = reply;
  assert.deepEqual(first, original);
  assert.equal(replayed, true);
  if (original.token === undefined) return;
  const issued = state.issuedTokens.get(original.token);
  assert.ok(issued, `token ${original.token} was never issued`);
  assert.deepEqual({ live, ending }, { live: issued.ending === null, ending: issued.ending === null ? null : { kind: issued.ending } });
};

describe('invariant 9: retrying a command with the same requestId gives the same answer and appends nothing', () => {
  it('a command reusing a requestId is replayed when its body is the same, and refused request_conflict when not', () => {
    forEveryHistory((transitions) => {
      for (const t of transitions) {
        const request = requestOf(t);
        const earlier = request && t.rememberedBefore.find((r) => r.nodeId === t.command.nodeId && r.command.request!.requestId === request.requestId);
        if (!earlier || !request) continue;
        if (earlier.command.request!.fingerprint === request.fingerprint) {
          assert.equal(t.decision.outcome, 'accepted');
          assert.deepEqual(eventsOf(t), []);
          assert.ok(t.decision.outcome === 'accepted');
          assertReplayOf(t.decision.reply, earlier.reply, t.before);
        } else {
          assert.equal(t.decision.outcome === 'refused' && t.decision.refusal.code, 'request_conflict');
        }
      }
    });
  });

  it('at every step, every request that appended events (acquire, release, deployment report) would get its answer again, and a different body would conflict', () => {
    forEveryHistory((transitions) => {
      for (const t of transitions) {
        for (const remembered of t.rememberedAfter) {
          const state = t.world[remembered.nodeId];
          const retry = nodeDecider.decide(resend(remembered, true, at(10_000)), state);
          assert.ok(retry.outcome === 'accepted');
          assert.deepEqual(retry.events, []);
          assertReplayOf(retry.reply, remembered.reply, state);
          const conflict = nodeDecider.decide(resend(remembered, false, at(10_000)), state);
          assert.equal(conflict.outcome === 'refused' && conflict.refusal.code, 'request_conflict');
        }
      }
    });
  });
});

describe('invariant 7 (in part): releasing the live allocation is accepted in every condition', () => {
  it('a release naming the live token, with a requestId never used before, always ends the allocation', () => {
    forEveryHistory((transitions) => {
      for (const t of transitions) {
        if (t.command.type !== 'ReleaseAllocation' || t.command.token !== t.before.allocation?.token) continue;
        const request = t.command.request;
        if (request && t.before.requests.has(request.requestId)) continue;
        assert.equal(t.decision.outcome, 'accepted', JSON.stringify(t.decision));
        assert.deepEqual(
          eventsOf(t).map((event) => event.type),
          ['AllocationReleased'],
        );
        assert.equal(t.after.allocation, null);
      }
    });
  });
});

describe('seed 1: a late observation never takes the machine from its next holder', () => {
  it('an observation made before the live allocation began changes nothing', () => {
    forEveryHistory((transitions) => {
      for (const t of transitions) {
        if (t.command.type !== 'ObserveProviderStatus' || !t.before.allocation) continue;
        if (Date.parse(t.command.observedAt) < Date.parse(t.before.allocation.acquiredAt)) assert.deepEqual(eventsOf(t), []);
      }
    });
  });
});

describe('the generated histories', () => {
  it('reach every situation the invariants are about (or the properties above would prove little)', () => {
    const seen = new Map<string, number>();
    const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
    fc.assert(
      fc.property(historyArb(), (steps) => {
        for (const t of runHistory(steps)) {
          count(t.decision.outcome === 'refused' ? `refused ${t.decision.refusal.code}` : `accepted ${t.command.type}`);
          for (const event of eventsOf(t)) count(event.type);
          if (acquiredIn(t).some((event) => event.data.reservationId !== null)) count('reservation consumed');
          if (acquiredIn(t).some((event) => event.data.epoch >= 3)) count('third allocation of a node');
          const { command, before } = t;
          if (command.type === 'ObserveProviderStatus' && before.allocation && command.observedAt < before.allocation.acquiredAt) count('late observation');
          if (t.decision.outcome === 'accepted' && t.decision.events.length === 0 && requestOf(t) && t.before.requests.has(requestOf(t)!.requestId))
            count('replayed');
        }
      }),
      { numRuns: 300 },
    );
    const expected = [
      'NodeAcquired',
      'AllocationReleased',
      'AllocationRevoked',
      'DeploymentStarted',
      'NodeDeployed',
      'DeploymentFailed',
      'AllocationOwnerDataSet',
      'NodeReserved',
      'ReservationExpired',
      'ReservationCancelled',
      'reservation consumed',
      'third allocation of a node',
      'replayed',
      'late observation',
      'refused stale_token',
      'refused not_found',
      'refused node_unavailable',
      'refused node_reserved',
      'refused reservation_mismatch',
      'refused request_conflict',
      'refused wrong_state',
      'refused already_exists',
    ];
    const missing = expected.filter((what) => (seen.get(what) ?? 0) < 5);
    assert.deepEqual(missing, [], `rarely or never generated: ${missing.join(', ')}\n${JSON.stringify(Object.fromEntries(seen), null, 1)}`);
  });
});
