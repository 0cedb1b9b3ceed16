import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldEvents } from '../core';
import { nodeDecider } from './node-decider';
import { specFor } from '../testing/decider-specification';
import {
  HEALTH_NODE,
  deployedNode,
  faultCleared,
  nodeFaulted,
  observePower,
  powerFaulted,
  powerSyncFailed,
  powerSyncRecovered,
  t,
} from '../testing/node-health-fixtures';

/**
 * Seed 4: a transient power-sync failure must not wedge a node. Failures are counted;
 * after N in a row the node is *faulted* (not in maintenance); one success clears it.
 */
const spec = specFor(nodeDecider);

describe('power-sync observations', () => {
  it('records a failed sync with how many failed in a row', () => {
    spec
      .given(deployedNode())
      .when(observePower(false, t(10), 'IPMI timeout'))
      .then([powerSyncFailed(t(10), 1, 'IPMI timeout')])
      .thenReplies({ nodeId: HEALTH_NODE, status: 'failing' });
  });

  it('faults the node on the Nth consecutive failure, with the last error, since the first failure', () => {
    spec
      .given([...deployedNode(), powerSyncFailed(t(10), 1), powerSyncFailed(t(20), 2)])
      .when(observePower(false, t(30), 'BMC unreachable'))
      .then([powerSyncFailed(t(30), 3, 'BMC unreachable'), nodeFaulted('power_failure', t(10), 'BMC unreachable')])
      .thenReplies({ status: 'faulted' });
  });

  it('takes N from the command: with N = 1 the first failure faults', () => {
    spec
      .given(deployedNode())
      .when(observePower(false, t(10), 'no route to host', 1))
      .then([powerSyncFailed(t(10), 1, 'no route to host'), nodeFaulted('power_failure', t(10), 'no route to host')]);
  });

  it('keeps recording failures while faulted, without faulting twice, and shows the latest error', () => {
    const history = [...deployedNode(), ...powerFaulted()];
    const decision = spec
      .given(history)
      .when(observePower(false, t(40), 'password rejected'))
      .then([powerSyncFailed(t(40), 4, 'password rejected')]);
    const state = foldEvents(nodeDecider, [...history, ...(decision.decision.outcome === 'accepted' ? decision.decision.events : [])]);
    assert.deepEqual(state.health.faults.power_failure, { since: t(10), lastError: 'password rejected', token: null });
  });

  it('a fault is not maintenance: the faulted node is not in maintenance', () => {
    const state = foldEvents(nodeDecider, [...deployedNode(), ...powerFaulted()]);
    assert.equal(state.health.maintenance, null);
    assert.ok(state.health.faults.power_failure);
  });

  it('clears the fault by itself on the first success: no operator involved', () => {
    spec
      .given([...deployedNode(), ...powerFaulted()])
      .when(observePower(true, t(50)))
      .then([powerSyncRecovered(t(50), 3), faultCleared('power_failure', t(50), 'power_sync_succeeded')])
      .thenReplies({ status: 'recovered' });
  });

  it('records a recovery after failures that had not yet faulted the node', () => {
    spec
      .given([...deployedNode(), powerSyncFailed(t(10), 1)])
      .when(observePower(true, t(20)))
      .then([powerSyncRecovered(t(20), 1)]);
  });

  it('records nothing for a success with no failure pending, so routine polling never floods the log', () => {
    spec
      .given(deployedNode())
      .when(observePower(true, t(10)))
      .thenNothingHappens()
      .thenReplies({ status: 'ok' });
    spec
      .given([...deployedNode(), powerSyncFailed(t(10), 1), powerSyncRecovered(t(20), 1)])
      .when(observePower(true, t(30)))
      .thenNothingHappens();
  });

  it('ignores an observation older than the last one recorded (late) or as old (repeated)', () => {
    const history = [...deployedNode(), ...powerFaulted()];
    spec
      .given(history)
      .when(observePower(true, t(25)))
      .thenNothingHappens()
      .thenReplies({ status: 'ignored' });
    spec
      .given(history)
      .when(observePower(false, t(30)))
      .thenNothingHappens()
      .thenReplies({ status: 'ignored' });
    // A late failure does not count against a node that has since recovered.
    spec
      .given([...history, powerSyncRecovered(t(50), 3), faultCleared('power_failure', t(50), 'power_sync_succeeded')])
      .when(observePower(false, t(45)))
      .thenNothingHappens();
  });

  it('starts counting afresh after a recovery: the next fault is since its own first failure', () => {
    spec
      .given([
        ...deployedNode(),
        powerSyncFailed(t(10), 1),
        powerSyncFailed(t(20), 2),
        powerSyncRecovered(t(25), 2),
        powerSyncFailed(t(30), 1),
        powerSyncFailed(t(40), 2),
      ])
      .when(observePower(false, t(50), 'IPMI timeout'))
      .then([powerSyncFailed(t(50), 3), nodeFaulted('power_failure', t(30), 'IPMI timeout')]);
  });

  it('uses a generic error when a failed sync says nothing', () => {
    spec
      .given(deployedNode())
      .when(observePower(false, t(10), null))
      .then([powerSyncFailed(t(10), 1, 'power sync failed')]);
  });

  it('is refused not_found for a node that was never enlisted', () => {
    spec
      .given([])
      .when(observePower(false, t(10)))
      .thenRefuses('not_found');
  });
});
