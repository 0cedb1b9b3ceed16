import { accept, type Decision } from '../core';
import type { ObservePowerSync } from './health-commands';
import type { NodeEvent } from './node-events';
import type { NodeReply, NodeState } from './node-state';

export const DEFAULT_POWER_ERROR = 'power sync failed';

/**
 * A power-sync result (seed 4). Every failure is recorded; the Nth in a row faults the
 * node (power_failure, with the last error, since the first failure). One success
 * after failures records the recovery and clears the fault: no operator involved.
 * A success with nothing pending records nothing, so routine polling never floods the
 * log. An observation not newer than the last one recorded (late or repeated) is ignored.
 */
export const decidePowerObservation = (command: ObservePowerSync, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const { nodeId, observedAt } = command;
  const { power, faults } = state.health;
  const reply = (status: string) => ({ nodeId, status });
  if (power.lastObservedAt !== null && Date.parse(observedAt) <= Date.parse(power.lastObservedAt)) return accept([], reply('ignored'));

  if (command.ok) {
    if (power.consecutiveFailures === 0) return accept([], reply('ok'));
    const events: NodeEvent[] = [{ type: 'PowerSyncRecovered', data: { nodeId, observedAt, failures: power.consecutiveFailures } }];
    if (faults.power_failure) events.push({ type: 'FaultCleared', data: { nodeId, fault: 'power_failure', at: observedAt, cause: 'power_sync_succeeded' } });
    return accept(events, reply('recovered'));
  }

  const error = command.error ?? DEFAULT_POWER_ERROR;
  const consecutive = power.consecutiveFailures + 1;
  const events: NodeEvent[] = [{ type: 'PowerSyncFailed', data: { nodeId, error, observedAt, consecutive } }];
  if (faults.power_failure) return accept(events, reply('faulted'));
  if (consecutive < command.failuresForFault) return accept(events, reply('failing'));
  events.push({ type: 'NodeFaulted', data: { nodeId, fault: 'power_failure', since: power.firstFailureAt ?? observedAt, error, token: null } });
  return accept(events, reply('faulted'));
};
