import type { Decision } from '../core';
import type { NodeHealthCommand } from './health-commands';
import type { NodeEvent } from './node-events';
import type { NodeReply, NodeState } from './node-state';
import { decidePowerObservation } from './decide-power-observation';
import { decideDeployTimeout } from './decide-deploy-timeout';
import { decideMaintenance } from './decide-maintenance';

/** Health commands on an enlisted node. */
export const decideHealth = (command: NodeHealthCommand, state: NodeState): Decision<NodeEvent, NodeReply> => {
  switch (command.type) {
    case 'ObservePowerSync':
      return decidePowerObservation(command, state);
    case 'CheckDeployTimeout':
      return decideDeployTimeout(command, state);
    case 'StartMaintenance':
    case 'EndMaintenance':
      return decideMaintenance(command, state);
  }
};
