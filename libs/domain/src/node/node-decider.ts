import { refuse, type Decider, type Decision } from '../core';
import type { NodeCommand } from './node-commands';
import type { NodeEvent } from './node-events';
import { initialNodeState, isEnlisted, type NodeReply, type NodeState } from './node-state';
import { evolveNode } from './evolve-node';
import { fence } from './fence';
import { decideEnlist } from './decide-enlist';
import { decideCancelReservation, decideReserve } from './decide-reservation';
import { decideAcquire } from './decide-acquire';
import { decideDeployment } from './decide-deployment';
import { decideRelease } from './decide-release';
import { decideOwnerData } from './decide-owner-data';
import { decideObservation } from './decide-observation';
import { decideHealth } from './decide-health';
import { withHealthFollowUps } from './health-follow-ups';
import { decideRegisterDevice, decideRemoveDevice } from './decide-device';
import { endDevicesWithTheirAllocation } from './devices-end-with-allocation';

const requestOf = (command: NodeCommand) => ('request' in command ? command.request : null);

/**
 * A command retried with the same requestId gets the answer it got the first time
 * and changes nothing; the same requestId with a different body is a conflict. The
 * answer says it is a replay and what became of its token since (issue 10, item 7).
 */
const replayIfRepeated = (command: NodeCommand, state: NodeState): Decision<NodeEvent, NodeReply> | null => {
  const request = requestOf(command);
  const remembered = request ? state.requests.get(request.requestId) : undefined;
  if (!request || !remembered) return null;
  if (remembered.fingerprint !== request.fingerprint) {
    return refuse('request_conflict', `requestId ${request.requestId} was already used with a different request`);
  }
  return { outcome: 'accepted', events: [], reply: replayedReply(remembered.reply, state) };
};

/** The first answer, marked as replayed, with the current state of the token it names (it may have ended since). */
const replayedReply = (reply: NodeReply, state: NodeState): NodeReply => {
  const issued = reply.token ? state.issuedTokens.get(reply.token) : undefined;
  if (!issued) return { ...reply, replayed: true };
  return { ...reply, replayed: true, live: issued.ending === null, ending: issued.ending === null ? null : { kind: issued.ending } };
};

const decideOnEnlisted = (command: Exclude<NodeCommand, { type: 'EnlistNode' }>, state: NodeState): Decision<NodeEvent, NodeReply> => {
  switch (command.type) {
    case 'ReserveNode':
      return decideReserve(command, state);
    case 'CancelReservation':
      return decideCancelReservation(command, state);
    case 'AcquireNode':
      return decideAcquire(command, state);
    case 'ObserveProviderStatus':
      return decideObservation(command, state);
    case 'ObservePowerSync':
    case 'CheckDeployTimeout':
    case 'StartMaintenance':
    case 'EndMaintenance':
      return decideHealth(command, state);
    case 'RegisterDevice':
      return decideRegisterDevice(command, state);
    case 'RemoveDevice':
      return decideRemoveDevice(command, state);
    case 'StartDeployment':
    case 'MarkDeployed':
    case 'MarkDeploymentFailed':
    case 'ReleaseAllocation':
    case 'SetOwnerData': {
      const fenced = fence(state, command.token);
      if ('refusal' in fenced) return { outcome: 'refused', refusal: fenced.refusal };
      if (command.type === 'SetOwnerData') return decideOwnerData(command, fenced.allocation);
      return command.type === 'ReleaseAllocation' ? decideRelease(command, fenced.allocation, state) : decideDeployment(command, fenced.allocation);
    }
  }
};

export const decideNode = (command: NodeCommand, state: NodeState): Decision<NodeEvent, NodeReply> => {
  if (command.type === 'EnlistNode') return decideEnlist(command, state);
  if (!isEnlisted(state)) return refuse('not_found', `node ${command.nodeId} is not enlisted`);
  return replayIfRepeated(command, state) ?? withHealthFollowUps(endDevicesWithTheirAllocation(decideOnEnlisted(command, state), state), state, command.now);
};

export const nodeDecider: Decider<NodeCommand, NodeEvent, NodeState, NodeReply> = {
  initialState: initialNodeState,
  evolve: evolveNode,
  decide: decideNode,
};
