import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { blocksProviderWork } from '../health-state';
import type { NodeEvent } from '../node-events';
import { HEALTH_NODE, t } from '../../testing/node-health-fixtures';
import { decideAndFold, healthHistoryArb, runHealthHistory, type HealthTransition } from './node-health-history';

/**
 * Invariant 7 (DESIGN.md), over generated observation histories of one node:
 * faults never need an operator to clear; maintenance is entered only by an operator;
 * releasing an allocation is accepted in every node condition; and (its consequence for
 * consumers) a faulted or maintenance node is never handed out.
 */
const RUNS = { numRuns: 400 };
const OPERATOR_COMMANDS: ReadonlySet<string> = new Set(['StartMaintenance', 'EndMaintenance']);
const eventsOf = (transition: HealthTransition): NodeEvent[] => (transition.decision.outcome === 'accepted' ? transition.decision.events : []);
const describeStep = (transition: HealthTransition): string =>
  `${transition.command.type} ${JSON.stringify(transition.command)} -> ${
    transition.decision.outcome === 'accepted'
      ? eventsOf(transition)
          .map((e) => e.type)
          .join(',') || '(nothing)'
      : transition.decision.refusal.code
  }`;

const forEveryTransition = (check: (transition: HealthTransition) => void) =>
  fc.assert(
    fc.property(healthHistoryArb, (history) => {
      const { transitions } = runHealthHistory(history);
      transitions.forEach((transition, index) => {
        try {
          check(transition);
        } catch (error) {
          throw new Error(`step ${index}: ${describeStep(transition)}\n${(error as Error).message}`);
        }
      });
    }),
    RUNS,
  );

describe('invariant 7: node health', () => {
  it("maintenance is entered and left only by the operator's command: nothing automatic ever touches it", () => {
    forEveryTransition((transition) => {
      const maintenanceEvents = eventsOf(transition).filter((e) => e.type === 'MaintenanceStarted' || e.type === 'MaintenanceEnded');
      if (!OPERATOR_COMMANDS.has(transition.command.type)) {
        assert.deepEqual(maintenanceEvents, [], 'an automatic command emitted a maintenance event');
        assert.deepEqual(transition.after.health.maintenance, transition.before.health.maintenance, 'maintenance changed without an operator');
      }
      for (const event of maintenanceEvents) assert.equal(event.data.by, (transition.command as { by: string }).by, 'maintenance names the operator who asked');
    });
  });

  it('releasing the live allocation is accepted in every node condition, and ends it now', () => {
    let releasesWhileUnhealthy = 0;
    forEveryTransition(({ command, before, decision, after }) => {
      if (command.type !== 'ReleaseAllocation' || before.allocation?.token !== command.token) return;
      assert.equal(decision.outcome, 'accepted', 'a release of the live allocation was refused');
      assert.equal(after.allocation, null, 'the allocation did not end');
      const { faults, maintenance } = before.health;
      if (Object.keys(faults).length > 0 || maintenance) releasesWhileUnhealthy++;
      // Cleanup is pending exactly when a fault stopped the provider doing it.
      const released = eventsOf({ command, before, decision, after }).find((e) => e.type === 'AllocationReleased');
      assert.deepEqual(released?.type === 'AllocationReleased' && released.data.pendingCleanup.length > 0, blocksProviderWork(before.health));
    });
    assert.ok(releasesWhileUnhealthy > 0, 'the generator never released a faulted or maintenance node');
  });

  it('a faulted or maintenance node (or one with cleanup pending) is never acquired', () => {
    forEveryTransition(({ command, before, decision }) => {
      if (command.type !== 'AcquireNode') return;
      const { faults, maintenance, pendingCleanup } = before.health;
      const unhealthy = Object.keys(faults).length > 0 || maintenance !== null || pendingCleanup !== null;
      if (!unhealthy) return;
      if (decision.outcome === 'accepted') assert.deepEqual(decision.events, [], 'an unhealthy node was handed out');
      else if (before.allocation === null) assert.equal(decision.refusal.code, maintenance ? 'node_in_maintenance' : 'node_faulted');
    });
  });

  it('a fault lasts only as long as its cause, and cleanup waits only for a fault that blocks the provider', () => {
    forEveryTransition(({ command, before, after }) => {
      const { faults, deployment, power, pendingCleanup } = after.health;
      if (faults.deploy_timeout) {
        assert.equal(deployment?.token, faults.deploy_timeout.token, 'deploy_timeout outlived its deployment');
        assert.equal(after.allocation?.token, faults.deploy_timeout.token, 'deploy_timeout outlived its allocation');
      }
      if (faults.power_failure) assert.ok(power.consecutiveFailures > 0, 'power_failure outlived the failures');
      if (pendingCleanup) assert.ok(blocksProviderWork(after.health), 'cleanup pending with nothing stopping it');
      // One successful, newer power sync always clears power_failure.
      if (command.type === 'ObservePowerSync' && command.ok) {
        const newer = before.health.power.lastObservedAt === null || Date.parse(command.observedAt) > Date.parse(before.health.power.lastObservedAt);
        if (newer) assert.equal(faults.power_failure, undefined, 'a successful power sync left power_failure');
      }
    });
  });

  it('faults never need an operator: after power returns and the deployment finishes, every fault and pending cleanup is gone', () => {
    fc.assert(
      fc.property(healthHistoryArb, (history) => {
        const { last, second, transitions } = runHealthHistory(history);
        const operatorStartedMaintenance = transitions.some((tr) => tr.command.type === 'StartMaintenance' && eventsOf(tr).length > 0);
        // Only what the world reports, no operator: a good power sync, then the deployment finishing.
        let state = decideAndFold(
          {
            type: 'ObservePowerSync',
            nodeId: HEALTH_NODE,
            ok: true,
            error: null,
            observedAt: t(second + 1),
            failuresForFault: history.failuresForFault,
            now: t(second + 1),
          },
          last,
        ).after;
        if (state.allocation && state.allocation.status === 'deploying') {
          state = decideAndFold({ type: 'MarkDeployed', nodeId: HEALTH_NODE, token: state.allocation.token, now: t(second + 2), request: null }, state).after;
        }
        assert.deepEqual(state.health.faults, {});
        assert.equal(state.health.pendingCleanup, null);
        assert.deepEqual(state.health.maintenance, last.health.maintenance, 'recovery must not touch maintenance');
        if (!operatorStartedMaintenance) assert.equal(state.health.maintenance, null, 'the node is in maintenance though no operator put it there');
        // And the node can be handed out again unless a consumer holds it or an operator does.
        const acquired = decideAndFold(
          {
            type: 'AcquireNode',
            nodeId: HEALTH_NODE,
            consumer: { controller: 'c', model: 'm' },
            request: { requestId: 'after-recovery', fingerprint: 'f' },
            reservationKeyHash: null,
            tokenEntropy: `entropy-of-epoch-${state.epoch + 1}`.padEnd(16, '0'),
            now: t(second + 3),
          },
          state,
        );
        const expected = state.allocation ? 'node_unavailable' : state.health.maintenance ? 'node_in_maintenance' : 'accepted';
        assert.equal(acquired.decision.outcome === 'accepted' ? 'accepted' : acquired.decision.refusal.code, expected);
      }),
      RUNS,
    );
  });

  it('the generator reaches every situation these properties are about', () => {
    const seen = new Map<string, number>();
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
    fc.assert(
      fc.property(healthHistoryArb, (history) => {
        for (const transition of runHealthHistory(history).transitions) {
          for (const event of eventsOf(transition)) {
            if (event.type === 'NodeFaulted' || event.type === 'FaultCleared') count(`${event.type}:${event.data.fault}`);
            else count(event.type);
            if (event.type === 'AllocationReleased' && event.data.pendingCleanup.length > 0) count('released with cleanup pending');
          }
          if (transition.decision.outcome === 'refused') count(`refused:${transition.command.type}:${transition.decision.refusal.code}`);
          if (transition.command.type === 'ObservePowerSync' && transition.decision.outcome === 'accepted' && transition.decision.reply.status === 'ignored')
            count('late power observation ignored');
        }
      }),
      { numRuns: 200, seed: 7 },
    );
    for (const situation of [
      'NodeFaulted:power_failure',
      'FaultCleared:power_failure',
      'NodeFaulted:deploy_timeout',
      'FaultCleared:deploy_timeout',
      'released with cleanup pending',
      'PendingCleanupDone',
      'MaintenanceStarted',
      'MaintenanceEnded',
      'PowerSyncRecovered',
      'refused:AcquireNode:node_faulted',
      'refused:AcquireNode:node_in_maintenance',
      'late power observation ignored',
    ]) {
      assert.ok((seen.get(situation) ?? 0) > 0, `never reached: ${situation}`);
    }
  });
});
