import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { Streams, type NodeEvent } from '@ledger/domain';
import { UNTRACKED } from '../runtime/collection-changes';
import { applyEvent } from './apply-event';
import { emptyLedgerView, type LedgerViewState } from './views';
import { acquirableNodes, listNodes, nodeStatus } from './node-queries';
import { activeFaultsOf, hasCondition, overdueDeployments } from './node-health-queries';
// Test-only reach into the domain's fixtures and history generator, so the read side is checked against the write side.
import {
  HEALTH_NODE,
  acquired,
  deployedNode,
  deploymentStarted,
  enlisted,
  faultCleared,
  maintenanceStarted,
  nodeFaulted,
  pendingCleanupDone,
  powerFaulted,
  powerSyncRecovered,
  released,
  t,
  tokenOf,
} from '../../../domain/src/testing/node-health-fixtures';
import { healthHistoryArb, runHealthHistory } from '../../../domain/src/node/invariants/node-health-history';

const recordAll = (events: NodeEvent[], nodeId = HEALTH_NODE, view: LedgerViewState = emptyLedgerView()): LedgerViewState => {
  for (const event of events) {
    const position = view.position + 1;
    const recorded: RecordedEvent = {
      id: `e-${position}`,
      type: event.type,
      data: { ...event.data, nodeId },
      stream: Streams.node(nodeId),
      revision: position - 1,
      position,
      recordedAt: t(0),
      metadata: { correlationId: 'c', causationId: null, actor: 'test', requestId: null, schemaVersion: 1 },
    };
    applyEvent(view, recorded, UNTRACKED);
  }
  return view;
};
const NOW = new Date(t(100));

describe('the node view shows health apart from the allocation', () => {
  it('a faulted deployed node keeps its status, shows the fault, and is not in maintenance', () => {
    const view = recordAll([...deployedNode(), ...powerFaulted()]);
    const node = view.nodes[HEALTH_NODE];
    assert.equal(nodeStatus(view, node, NOW), 'deployed');
    assert.deepEqual(activeFaultsOf(node), [{ fault: 'power_failure', since: t(10), lastError: 'BMC unreachable', token: null }]);
    assert.equal(node.health.maintenance, null);
    assert.ok(hasCondition(node, 'faulted') && !hasCondition(node, 'maintenance') && !hasCondition(node, 'healthy'));
  });

  it('a released faulted node is "faulted", lists its pending cleanup, and is neither ready nor acquirable', () => {
    const view = recordAll([...deployedNode(), ...powerFaulted(), released(t(40), ['power_off', 'wipe_disks'])]);
    const node = view.nodes[HEALTH_NODE];
    assert.equal(nodeStatus(view, node, NOW), 'faulted');
    assert.deepEqual(node.health.pendingCleanup, { token: tokenOf(1), epoch: 1, steps: ['power_off', 'wipe_disks'], since: t(40) });
    assert.deepEqual(listNodes(view, 'ready', NOW), []);
    assert.deepEqual(
      listNodes(view, 'faulted', NOW).map((n) => n.nodeId),
      [HEALTH_NODE],
    );
    assert.deepEqual(acquirableNodes(view, {}, NOW), []);
  });

  it('once the fault clears and the cleanup is done the node is ready again', () => {
    const view = recordAll([
      ...deployedNode(),
      ...powerFaulted(),
      released(t(40), ['power_off', 'wipe_disks']),
      powerSyncRecovered(t(50), 3),
      faultCleared('power_failure', t(50), 'power_sync_succeeded'),
      pendingCleanupDone(t(50)),
    ]);
    const node = view.nodes[HEALTH_NODE];
    assert.equal(nodeStatus(view, node, NOW), 'ready');
    assert.ok(hasCondition(node, 'healthy'));
    assert.deepEqual(
      acquirableNodes(view, {}, NOW).map((n) => n.nodeId),
      [HEALTH_NODE],
    );
  });

  it('a node in maintenance shows who and why, has status "maintenance", and constraint-based acquire skips it', () => {
    const view = recordAll([enlisted(), maintenanceStarted(t(10))]);
    recordAll([enlisted()], 'node-8', view);
    const node = view.nodes[HEALTH_NODE];
    assert.deepEqual(node.health.maintenance, { reason: 'replacing a DIMM', by: 'operator:charlie', since: t(10) });
    assert.equal(nodeStatus(view, node, NOW), 'maintenance');
    assert.deepEqual(
      acquirableNodes(view, {}, NOW).map((n) => n.nodeId),
      ['node-8'],
    );
    assert.deepEqual(
      listNodes(view, 'ready', NOW).map((n) => n.nodeId),
      ['node-8'],
    );
  });

  it('finds deployments overdue by the read model, and not those already faulted', () => {
    const view = recordAll([enlisted(), acquired(), deploymentStarted(t(10))]);
    assert.deepEqual(overdueDeployments(view, new Date(t(69)), 60), []);
    assert.deepEqual(overdueDeployments(view, new Date(t(70)), 60), [HEALTH_NODE]);
    recordAll([nodeFaulted('deploy_timeout', t(70), 'late', tokenOf(1))], HEALTH_NODE, view);
    assert.deepEqual(overdueDeployments(view, new Date(t(99)), 60), []);
  });

  it('the read side shows exactly the health the node stream decides on, for any history', () => {
    fc.assert(
      fc.property(healthHistoryArb, (history) => {
        const { transitions, last } = runHealthHistory(history);
        const events = [enlisted(), ...transitions.flatMap((tr) => (tr.decision.outcome === 'accepted' ? tr.decision.events : []))];
        const health = recordAll(events).nodes[HEALTH_NODE].health;
        const domainFaults = Object.fromEntries(
          Object.entries(last.health.faults).map(([fault, f]) => [fault, { fault, since: f!.since, lastError: f!.lastError, token: f!.token }]),
        );
        assert.deepEqual(health.faults, domainFaults);
        assert.deepEqual(health.maintenance, last.health.maintenance);
        assert.deepEqual(health.pendingCleanup, last.health.pendingCleanup);
        assert.equal(health.consecutivePowerFailures, last.health.power.consecutiveFailures);
        assert.deepEqual(health.deployment, last.health.deployment && { token: last.health.deployment.token, startedAt: last.health.deployment.startedAt });
      }),
      { numRuns: 200 },
    );
  });
});
