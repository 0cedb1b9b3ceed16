import { describe, it } from 'node:test';
import { nodeDecider } from './node-decider';
import { specFor } from '../testing/decider-specification';
import {
  HEALTH_NODE,
  OPERATOR,
  deployedNode,
  endMaintenance,
  enlisted,
  maintenanceStarted,
  powerFaulted,
  release,
  released,
  startMaintenance,
  t,
} from '../testing/node-health-fixtures';
import type { NodeEvent } from './node-events';

/**
 * Maintenance is the operator's: entered and ended only by an operator's command, with
 * who and why. It is not a fault and nothing automatic ever sets it (see the property).
 */
const spec = specFor(nodeDecider);

describe('operator maintenance', () => {
  it('starts with the reason and the operator who asked', () => {
    spec
      .given([enlisted()])
      .when(startMaintenance(t(10), 'replacing a DIMM', OPERATOR))
      .then([maintenanceStarted(t(10), 'replacing a DIMM', OPERATOR)])
      .thenReplies({ nodeId: HEALTH_NODE, status: 'maintenance' });
  });

  it('starting it again changes nothing: the first reason and operator stand', () => {
    spec
      .given([enlisted(), maintenanceStarted(t(10))])
      .when(startMaintenance(t(20), 'another reason', 'operator:dana'))
      .thenNothingHappens();
  });

  it('ends with the operator who ended it, and an optional reason', () => {
    const ended: NodeEvent = { type: 'MaintenanceEnded', data: { nodeId: HEALTH_NODE, reason: 'DIMM replaced', by: 'operator:dana', at: t(30) } };
    spec
      .given([enlisted(), maintenanceStarted(t(10))])
      .when(endMaintenance(t(30), 'operator:dana', 'DIMM replaced'))
      .then([ended])
      .thenReplies({ status: 'not_in_maintenance' });
  });

  it('ending it when the node is not in maintenance changes nothing', () => {
    spec
      .given([enlisted()])
      .when(endMaintenance(t(30)))
      .thenNothingHappens();
  });

  it('can be put on a faulted node; the two stay separate', () => {
    spec
      .given([...deployedNode(), ...powerFaulted()])
      .when(startMaintenance(t(40)))
      .then([maintenanceStarted(t(40))]);
  });

  it('can be put on an allocated node, and the holder can still release it', () => {
    const history = [...deployedNode(), maintenanceStarted(t(40))];
    spec
      .given(history)
      .when(release(t(50)))
      .then([released(t(50))])
      .thenReplies({ status: 'released' });
  });

  it('is refused not_found on a node that was never enlisted', () => {
    spec
      .given([])
      .when(startMaintenance(t(10)))
      .thenRefuses('not_found');
  });
});
