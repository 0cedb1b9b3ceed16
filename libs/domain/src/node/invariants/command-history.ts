import type { Decision } from '../../core';
import { mintToken, type ProvisioningToken } from '../../provisioning-token';
import { CONSUMERS, PROFILE, at } from '../../testing';
import type { AcquireNode, NodeCommand, ReleaseAllocation } from '../node-commands';
import { nodeDecider } from '../node-decider';
import type { NodeEvent, RequestStamp } from '../node-events';
import type { NodeReply, NodeState } from '../node-state';
import {
  ENDINGS,
  ENTROPY_POOL,
  historyArb,
  OBSERVED_STATUSES,
  WHO,
  type DeploymentReport,
  type RequestCommand,
  type RequestPick,
  type Step,
  type TokenPick,
} from './arbitrary-command-history';

/**
 * Random command histories over a few nodes and consumers, for the invariant properties.
 *
 * A history is a list of abstract steps ("release some token that was issued earlier,
 * reusing some earlier requestId"); running it turns each step into a concrete command
 * against the world as it stands (tokens actually issued so far, the node's current
 * reservation key, ...), decides it, and folds the events if it was accepted, as the
 * command handler does. Every transition is recorded for the properties to inspect.
 */

export const NODE_IDS = ['n1', 'n2', 'n3'] as const;
/** n3 starts unknown, so commands on an unenlisted node and late enlists happen too. */
const ENLISTED_AT_START = ['n1', 'n2'];
const MADE_UP_ENTROPY = 'madeUpEntropy0000';

export { historyArb, type RequestCommand, type Step };

/** A command that carried a requestId and was accepted with events, and the reply it got. */
export interface RememberedCommand {
  nodeId: string;
  command: RequestCommand;
  reply: NodeReply;
}

export interface Transition {
  step: Step | null;
  command: NodeCommand;
  before: NodeState;
  decision: Decision<NodeEvent, NodeReply>;
  after: NodeState;
  /** Every node's state once this step is done. */
  world: Readonly<Record<string, NodeState>>;
  /** Accepted commands with a requestId, up to and excluding this step. */
  rememberedBefore: readonly RememberedCommand[];
  /** ... and including it. */
  rememberedAfter: readonly RememberedCommand[];
}

/** A digest of what the client sent, as the HTTP layer computes it: time and injected randomness are not part of it. */
export const fingerprintOf = (command: RequestCommand): string => {
  switch (command.type) {
    case 'AcquireNode':
      return JSON.stringify([command.type, command.nodeId, command.consumer, command.reservationKeyHash]);
    case 'ReleaseAllocation':
      return JSON.stringify([command.type, command.nodeId, command.token, command.ending]);
    case 'MarkDeploymentFailed':
      return JSON.stringify([command.type, command.nodeId, command.token, command.reason, command.source]);
    default:
      return JSON.stringify([command.type, command.nodeId, command.token]);
  }
};

const anotherBody = (command: RequestCommand): RequestCommand => {
  switch (command.type) {
    case 'AcquireNode':
      return { ...command, consumer: { ...command.consumer, machine: 'another' } };
    case 'ReleaseAllocation':
      return { ...command, ending: command.ending === 'released' ? 'force_released' : 'released' };
    case 'StartDeployment':
      return { ...command, type: 'MarkDeployed' };
    case 'MarkDeployed':
    case 'MarkDeploymentFailed':
      return { ...command, type: 'StartDeployment' };
  }
};

/** The same request sent again later (same body, new time and entropy), or a different body under the same requestId. */
export const resend = (remembered: RememberedCommand, sameBody: boolean, now: string): RequestCommand => {
  const original = remembered.command;
  const retried = original.type === 'AcquireNode' ? { ...original, now, tokenEntropy: ENTROPY_POOL[1] } : { ...original, now };
  const body = sameBody ? retried : anotherBody(retried);
  return { ...body, request: { requestId: original.request!.requestId, fingerprint: fingerprintOf(body) } };
};

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    Object.values(value).forEach(deepFreeze);
  }
  return value;
};

/** Runs a history and returns every transition, enlisting the starting nodes first. */
export const runHistory = (steps: Step[]): Transition[] => {
  let minute = 0;
  let counter = 0;
  const states: Record<string, NodeState> = Object.fromEntries(NODE_IDS.map((id) => [id, nodeDecider.initialState()]));
  const issued: { token: ProvisioningToken; nodeId: string }[] = [];
  const keysOf: Record<string, string[]> = Object.fromEntries(NODE_IDS.map((id) => [id, []]));
  const requestIdsOf: Record<string, string[]> = Object.fromEntries(NODE_IDS.map((id) => [id, []]));
  const remembered: RememberedCommand[] = [];
  const transitions: Transition[] = [];

  const now = () => at(minute);
  const fresh = (prefix: string) => `${prefix}-${++counter}`;

  const requestFor = (nodeId: string, choice: RequestPick, allowNone: boolean): string | null => {
    const used = requestIdsOf[nodeId];
    if (choice.kind === 'none' && allowNone) return null;
    if (choice.kind === 'reuse' && used.length > 0) return used[choice.pick % used.length];
    return fresh('req');
  };
  const stamped = <C extends RequestCommand>(command: C, requestId: string | null): C => {
    if (requestId === null) return command;
    requestIdsOf[command.nodeId].push(requestId);
    return { ...command, request: { requestId, fingerprint: fingerprintOf(command) } };
  };

  /** The token a step names, and the node the command goes to (routed by the token, as the HTTP layer does). */
  const tokenFor = (nodeId: string, choice: TokenPick): { token: string; nodeId: string } => {
    const live = states[nodeId].allocation?.token;
    const others = issued.filter((entry) => entry.nodeId !== nodeId);
    if (choice.kind === 'live' && live) return { token: live, nodeId };
    if ((choice.kind === 'live' || choice.kind === 'issued') && issued.length > 0) return issued[choice.pick % issued.length];
    if (choice.kind === 'otherNode' && others.length > 0) return { token: others[choice.pick % others.length].token, nodeId };
    return { token: mintToken(nodeId, 1 + (choice.pick % 5), MADE_UP_ENTROPY), nodeId };
  };

  const commandFor = (step: Step): NodeCommand | null => {
    if (step.kind === 'resend') {
      if (remembered.length === 0) return null;
      return resend(remembered[step.pick % remembered.length], step.sameBody, now());
    }
    const nodeId = NODE_IDS[step.node];
    const state = states[nodeId];
    switch (step.kind) {
      case 'enlist':
        return {
          type: 'EnlistNode',
          nodeId,
          profile: step.differentProfile ? { ...PROFILE, hostname: `${nodeId}-impostor` } : { ...PROFILE, hostname: nodeId },
        };
      case 'reserve': {
        const keyHash = fresh('key');
        keysOf[nodeId].push(keyHash);
        return {
          type: 'ReserveNode',
          nodeId,
          reservationId: fresh('res'),
          agentName: 'autopilot',
          owner: null,
          keyHash,
          expiresAt: at(minute + step.ttl),
          now: now(),
        };
      }
      case 'cancel':
        return {
          type: 'CancelReservation',
          nodeId,
          reservationId: step.rightId ? (state.reservation?.reservationId ?? 'res-none') : 'res-guess',
          keyHash: step.rightKey ? (state.reservation?.keyHash ?? 'key-guess') : 'key-guess',
          now: now(),
        };
      case 'acquire': {
        const keys = keysOf[nodeId];
        const reservationKeyHash = {
          none: null,
          right: state.reservation?.keyHash ?? keys[keys.length - 1] ?? null,
          wrong: 'key-guess',
          old: keys.length > 0 ? keys[step.keyPick % keys.length] : null,
        }[step.key];
        const command: AcquireNode = {
          type: 'AcquireNode',
          nodeId,
          consumer: CONSUMERS[WHO[step.who]],
          request: { requestId: '', fingerprint: '' },
          reservationKeyHash,
          tokenEntropy: ENTROPY_POOL[step.entropy],
          now: now(),
        };
        return stamped(command, requestFor(nodeId, step.request, false));
      }
      case 'report': {
        const target = tokenFor(nodeId, step.token);
        const base = { nodeId: target.nodeId, token: target.token, now: now(), request: null };
        const report: DeploymentReport =
          step.report === 'MarkDeploymentFailed' ? { type: step.report, ...base, reason: 'curtin failed', source: 'juju' } : { type: step.report, ...base };
        return stamped(report, requestFor(target.nodeId, step.request, true));
      }
      case 'release': {
        const target = tokenFor(nodeId, step.token);
        const command: ReleaseAllocation = {
          type: 'ReleaseAllocation',
          nodeId: target.nodeId,
          token: target.token,
          now: now(),
          request: null,
          ending: ENDINGS[step.ending],
        };
        return stamped(command, requestFor(target.nodeId, step.request, true));
      }
      case 'ownerData': {
        const target = tokenFor(nodeId, step.token);
        const key = ['juju-model-uuid', 'juju-machine-id', 'juju-is-controller'][step.key];
        return { type: 'SetOwnerData', ...target, now: now(), request: null, ownerData: { [key]: step.clear ? '' : `${target.token.slice(-4)}-${minute}` } };
      }
      case 'observe':
        return {
          type: 'ObserveProviderStatus',
          nodeId,
          providerStatus: OBSERVED_STATUSES[step.status],
          source: 'maas',
          observedAt: at(minute - step.age),
          now: now(),
          ...(step.heldOutOfBand ? { heldOutOfBand: true } : {}),
        };
    }
  };

  const apply = (step: Step | null, command: NodeCommand) => {
    const before = deepFreeze(states[command.nodeId]);
    const rememberedBefore = [...remembered];
    const decision = nodeDecider.decide(deepFreeze(command), before);
    let after = before;
    if (decision.outcome === 'accepted') {
      after = deepFreeze(decision.events).reduce(nodeDecider.evolve, before);
      states[command.nodeId] = after;
      for (const event of decision.events) {
        if (event.type === 'NodeAcquired') issued.push({ token: event.data.token, nodeId: event.data.nodeId });
      }
      const request: RequestStamp | null = 'request' in command ? command.request : null;
      const alreadyRemembered =
        request && remembered.some((entry) => entry.nodeId === command.nodeId && entry.command.request!.requestId === request.requestId);
      // A request is remembered by the event it caused; one that changed nothing is not (see idempotency spec).
      if (request && !alreadyRemembered && decision.events.length > 0) {
        remembered.push({ nodeId: command.nodeId, command: command as RequestCommand, reply: decision.reply });
      }
    }
    transitions.push({ step, command, before, decision, after, world: { ...states }, rememberedBefore, rememberedAfter: [...remembered] });
  };

  for (const nodeId of ENLISTED_AT_START) apply(null, { type: 'EnlistNode', nodeId, profile: { ...PROFILE, hostname: nodeId } });
  for (const step of steps) {
    minute += step.advance;
    const command = commandFor(step);
    if (command) apply(step, command);
  }
  return transitions;
};

/** One line per transition, so a shrunk counterexample reads as a story of concrete commands. */
export const narrate = (transitions: Transition[]): string =>
  transitions
    .map(({ command, decision }) => {
      const { type, nodeId, ...rest } = command;
      const outcome =
        decision.outcome === 'refused' ? `refused ${decision.refusal.code}` : `accepted [${decision.events.map((event) => event.type).join(', ')}]`;
      return `  ${type} ${nodeId} ${JSON.stringify(rest)}\n    -> ${outcome}`;
    })
    .join('\n');

/** The token a command names, if it is one of the fenced commands. */
export const tokenNamedBy = (command: NodeCommand): string | null => ('token' in command ? command.token : null);
