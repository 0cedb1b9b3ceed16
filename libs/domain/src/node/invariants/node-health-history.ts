import fc from 'fast-check';
import type { Decision } from '../../core';
import type { NodeCommand } from '../node-commands';
import { nodeDecider } from '../node-decider';
import type { NodeEvent } from '../node-events';
import type { NodeReply, NodeState } from '../node-state';
import type { ReleaseAllocation } from '../node-commands';
import { HEALTH_NODE, OPERATOR, enlisted, t, tokenOf } from '../../testing/node-health-fixtures';

/**
 * Random observation histories of one node, for invariant 7: power syncs that fail and
 * succeed with varying errors, some arriving late; deployments starting and finishing;
 * provider reports; the deploy-timeout timer ticking at various times; acquires;
 * releases of every kind; and an operator putting the node in and out of maintenance.
 * Each step becomes a concrete command against the node as it stands, is decided, and
 * its events are folded if accepted, as the command handler does.
 */

const ERRORS = ['IPMI timeout', 'BMC unreachable', 'password rejected', 'no route to host'];
const PROVIDER_SAYS = ['Ready', 'Failed deployment', 'Deployed'];
const ENDINGS: ReleaseAllocation['ending'][] = ['released', 'force_released', 'model_released'];

export type HealthStep = { advance: number } & (
  | { kind: 'power'; ok: boolean; error: number | null; lateBy: number }
  | { kind: 'report'; report: 'StartDeployment' | 'MarkDeployed' | 'MarkDeploymentFailed' }
  | { kind: 'provider'; says: number }
  | { kind: 'tick' }
  | { kind: 'acquire' }
  | { kind: 'release'; ending: number; stale: boolean }
  | { kind: 'maintenanceOn'; reason: number }
  | { kind: 'maintenanceOff' }
);

export interface HealthHistory {
  failuresForFault: number;
  timeoutSeconds: number;
  steps: HealthStep[];
}

const stepArb: fc.Arbitrary<HealthStep> = fc
  .tuple(
    fc.nat({ max: 30 }),
    fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('power' as const),
          ok: fc.boolean(),
          error: fc.option(fc.nat({ max: ERRORS.length - 1 })),
          // Mostly on time; sometimes a late message that overtook nothing.
          lateBy: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 90 }) }),
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('report' as const),
          report: fc.constantFrom('StartDeployment' as const, 'StartDeployment' as const, 'MarkDeployed' as const, 'MarkDeploymentFailed' as const),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('provider' as const), says: fc.nat({ max: PROVIDER_SAYS.length - 1 }) }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('tick' as const) }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('acquire' as const) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('release' as const), ending: fc.nat({ max: ENDINGS.length - 1 }), stale: fc.boolean() }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('maintenanceOn' as const), reason: fc.nat({ max: 3 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('maintenanceOff' as const) }) },
    ),
  )
  .map(([advance, step]) => ({ advance, ...step }));

export const healthHistoryArb: fc.Arbitrary<HealthHistory> = fc.record({
  failuresForFault: fc.integer({ min: 1, max: 4 }),
  timeoutSeconds: fc.integer({ min: 5, max: 90 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 60, size: 'max' }),
});

export interface HealthTransition {
  command: NodeCommand;
  before: NodeState;
  decision: Decision<NodeEvent, NodeReply>;
  after: NodeState;
}

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};

/** Decides one command against the state and folds its events if accepted; inputs are frozen, so a mutating decider throws. */
export const decideAndFold = (command: NodeCommand, before: NodeState): HealthTransition => {
  const decision = nodeDecider.decide(deepFreeze(command), deepFreeze(before));
  const after = decision.outcome === 'accepted' ? decision.events.reduce(nodeDecider.evolve, before) : before;
  return { command, before, decision, after: deepFreeze(after) };
};

/** The concrete command a step means for the node as it stands at `second`. */
export const commandFor = (step: HealthStep, state: NodeState, history: HealthHistory, second: number): NodeCommand => {
  const now = t(second);
  const nodeId = HEALTH_NODE;
  // The live token if there is one; otherwise (or when asked for a stale one) the last issued.
  const token = state.allocation && !('stale' in step && step.stale) ? state.allocation.token : tokenOf(Math.max(1, state.epoch));
  switch (step.kind) {
    case 'power':
      return {
        type: 'ObservePowerSync',
        nodeId,
        ok: step.ok,
        error: step.error === null ? null : ERRORS[step.error],
        observedAt: t(second - step.lateBy),
        failuresForFault: history.failuresForFault,
        now,
      };
    case 'report':
      return step.report === 'MarkDeploymentFailed'
        ? { type: 'MarkDeploymentFailed', nodeId, token, reason: 'curtin failed', source: 'maas', now, request: null }
        : { type: step.report, nodeId, token, now, request: null };
    case 'provider':
      return { type: 'ObserveProviderStatus', nodeId, providerStatus: PROVIDER_SAYS[step.says], source: 'maas', observedAt: now, now };
    case 'tick':
      return { type: 'CheckDeployTimeout', nodeId, timeoutSeconds: history.timeoutSeconds, now };
    case 'acquire':
      return {
        type: 'AcquireNode',
        nodeId,
        consumer: { controller: 'c', model: 'm' },
        request: { requestId: `acquire-${second}-${state.epoch}`, fingerprint: 'f' },
        reservationKeyHash: null,
        tokenEntropy: `entropy-of-epoch-${state.epoch + 1}`.padEnd(16, '0'),
        now,
      };
    case 'release':
      return { type: 'ReleaseAllocation', nodeId, token, ending: ENDINGS[step.ending], now, request: null };
    case 'maintenanceOn':
      return { type: 'StartMaintenance', nodeId, reason: `reason ${step.reason}`, by: OPERATOR, now };
    case 'maintenanceOff':
      return { type: 'EndMaintenance', nodeId, reason: null, by: OPERATOR, now };
  }
};

export const START_SECOND = 1_000;

/** Runs a history from an enlisted node; returns every transition and the final time. */
export const runHealthHistory = (history: HealthHistory): { transitions: HealthTransition[]; last: NodeState; second: number } => {
  let state = deepFreeze(nodeDecider.evolve(nodeDecider.initialState(), enlisted()));
  let second = START_SECOND;
  const transitions: HealthTransition[] = [];
  for (const step of history.steps) {
    second += step.advance;
    const transition = decideAndFold(commandFor(step, state, history, second), state);
    transitions.push(transition);
    state = transition.after;
  }
  return { transitions, last: state, second };
};
