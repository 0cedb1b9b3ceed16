import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeDecider } from './node-decider';
import { specFor, storyFor } from '../testing/decider-specification';
import {
  acquire,
  deployedNode,
  enlisted,
  faultCleared,
  maintenanceStarted,
  observePower,
  pendingCleanupDone,
  powerFaulted,
  powerSyncRecovered,
  release,
  released,
  endMaintenance,
  startMaintenance,
  t,
  tokenOf,
  HEALTH_NODE,
} from '../testing/node-health-fixtures';
import type { NodeEvent } from './node-events';

/**
 * What faults and maintenance mean for handing nodes out and giving them back (seed 4):
 * a faulted or maintenance node is never acquired or reserved; release is accepted in
 * every condition, and cleanup the provider could not do waits, visibly, for the fault
 * to clear by itself.
 */
const spec = specFor(nodeDecider);
const CLEANUP = ['power_off', 'wipe_disks'];
const faultedAndReleased: NodeEvent[] = [...deployedNode(), ...powerFaulted(), released(t(40), CLEANUP)];

describe('acquiring and reserving a faulted or maintenance node', () => {
  it('refuses to acquire a faulted node: node_faulted, saying which fault and since when', () => {
    spec
      .given([enlisted(), ...powerFaulted()])
      .when(acquire(t(50)))
      .thenRefuses('node_faulted', { faults: [{ fault: 'power_failure', since: t(10), lastError: 'BMC unreachable' }], pendingCleanup: [] });
  });

  it('refuses to acquire a node in maintenance: node_in_maintenance, with who and why', () => {
    spec
      .given([enlisted(), maintenanceStarted(t(10))])
      .when(acquire(t(50)))
      .thenRefuses('node_in_maintenance', { reason: 'replacing a DIMM' });
  });

  it('names maintenance first when the node is both: only an operator can end it', () => {
    spec
      .given([enlisted(), ...powerFaulted(), maintenanceStarted(t(35))])
      .when(acquire(t(50)))
      .thenRefuses('node_in_maintenance');
  });

  it('refuses to reserve a faulted or maintenance node', () => {
    const reserve = {
      type: 'ReserveNode' as const,
      nodeId: HEALTH_NODE,
      reservationId: 'r1',
      agentName: 'autopilot',
      owner: null,
      keyHash: 'h',
      expiresAt: t(999),
      now: t(50),
    };
    spec
      .given([enlisted(), ...powerFaulted()])
      .when(reserve)
      .thenRefuses('node_faulted');
    spec
      .given([enlisted(), maintenanceStarted(t(10))])
      .when(reserve)
      .thenRefuses('node_in_maintenance');
  });

  it('hands the node out again once maintenance ends or the fault clears', () => {
    spec
      .given([enlisted(), maintenanceStarted(t(10)), { type: 'MaintenanceEnded', data: { nodeId: HEALTH_NODE, reason: null, by: 'op', at: t(20) } }])
      .when(acquire(t(50)))
      .thenReplies({ status: 'allocated', epoch: 1 });
    spec
      .given([enlisted(), ...powerFaulted(), powerSyncRecovered(t(40), 3), faultCleared('power_failure', t(40), 'power_sync_succeeded')])
      .when(acquire(t(50)))
      .thenReplies({ status: 'allocated' });
  });
});

describe('releasing in every condition', () => {
  it('releases a faulted node now, listing the provider-side cleanup that could not run', () => {
    spec
      .given([...deployedNode(), ...powerFaulted()])
      .when(release(t(40)))
      .then([released(t(40), CLEANUP)])
      .thenReplies({ status: 'released', token: tokenOf(1), pendingCleanup: CLEANUP });
  });

  for (const ending of ['force_released', 'model_released'] as const) {
    it(`does the same for a ${ending.replace('_', ' ')}`, () => {
      const decision = spec.given([...deployedNode(), ...powerFaulted()]).when(release(t(40), 1, { ending })).decision;
      assert.equal(decision.outcome, 'accepted');
      assert.deepEqual(decision.outcome === 'accepted' && (decision.events[0].data as { pendingCleanup: string[] }).pendingCleanup, CLEANUP);
    });
  }

  it('releases a node in maintenance with nothing pending: maintenance does not stop the provider', () => {
    spec
      .given([...deployedNode(), maintenanceStarted(t(10))])
      .when(release(t(40)))
      .then([released(t(40))]);
  });

  it('does not hand out a released faulted node while its cleanup is pending', () => {
    spec
      .given(faultedAndReleased)
      .when(acquire(t(50)))
      .thenRefuses('node_faulted', { pendingCleanup: CLEANUP });
  });

  it('marks the cleanup done by itself when power comes back, and the node can be handed out again', () => {
    spec
      .given(faultedAndReleased)
      .when(observePower(true, t(60)))
      .then([powerSyncRecovered(t(60), 3), faultCleared('power_failure', t(60), 'power_sync_succeeded'), pendingCleanupDone(t(60))]);
    spec
      .given([...faultedAndReleased, powerSyncRecovered(t(60), 3), faultCleared('power_failure', t(60), 'power_sync_succeeded'), pendingCleanupDone(t(60))])
      .when(acquire(t(70)))
      .thenReplies({ status: 'allocated', epoch: 2, token: tokenOf(2) });
  });

  it('a retried release gets the same answer, pending cleanup included, even after the cleanup was done', () => {
    const request = { requestId: 'release-1', fingerprint: 'digest' };
    const history = [
      ...deployedNode(),
      ...powerFaulted(),
      released(t(40), CLEANUP, 1, request),
      powerSyncRecovered(t(60), 3),
      faultCleared('power_failure', t(60), 'power_sync_succeeded'),
      pendingCleanupDone(t(60)),
    ];
    spec
      .given(history)
      .when(release(t(70), 1, { request }))
      .thenNothingHappens()
      .thenReplies({ status: 'released', pendingCleanup: CLEANUP });
  });

  it('the consumer of seed 4 is never wedged: faulted, released, recovered, maintained, handed out again', () => {
    const story = storyFor(nodeDecider);
    story.when({
      type: 'EnlistNode',
      nodeId: HEALTH_NODE,
      profile: { hostname: 'node-7.maas', arch: 'amd64', cpuCount: 8, memoryMb: 16384, tags: [], zone: 'default' },
    });
    story.when({ ...acquire(t(0), 1), request: { requestId: 'a1', fingerprint: 'f1' } }).thenReplies({ epoch: 1 });
    story.when(observePower(false, t(10))).thenReplies({ status: 'failing' });
    story.when(observePower(false, t(20))).thenReplies({ status: 'failing' });
    story.when(observePower(false, t(30))).thenReplies({ status: 'faulted' });
    assert.equal(story.state.health.maintenance, null, 'a fault is never maintenance');
    story.when(release(t(40))).thenReplies({ status: 'released', pendingCleanup: CLEANUP });
    story.when(acquire(t(45))).thenRefuses('node_faulted');
    story.when(observePower(true, t(50))).thenReplies({ status: 'recovered' });
    assert.deepEqual(story.state.health.faults, {});
    assert.equal(story.state.health.pendingCleanup, null);
    story.when(startMaintenance(t(60))).thenReplies({ status: 'maintenance' });
    story.when(acquire(t(65))).thenRefuses('node_in_maintenance');
    story.when(endMaintenance(t(70))).thenReplies({ status: 'not_in_maintenance' });
    story.when(acquire(t(75))).thenReplies({ status: 'allocated', epoch: 2 });
    assert.deepEqual(
      story.events.map((e) => e.type),
      [
        'NodeEnlisted',
        'NodeAcquired',
        'PowerSyncFailed',
        'PowerSyncFailed',
        'PowerSyncFailed',
        'NodeFaulted',
        'AllocationReleased',
        'PowerSyncRecovered',
        'FaultCleared',
        'PendingCleanupDone',
        'MaintenanceStarted',
        'MaintenanceEnded',
        'NodeAcquired',
      ],
    );
  });
});
