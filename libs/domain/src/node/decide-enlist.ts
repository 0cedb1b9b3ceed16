import { accept, refuse, type Decision } from '../core';
import type { EnlistNode } from './node-commands';
import type { NodeEvent } from './node-events';
import type { NodeReply, NodeState } from './node-state';

/** Field by field, whatever order the fields arrived in (a client's JSON, a store that reorders keys). */
const sameProfile = (a: object, b: object): boolean => {
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return JSON.stringify(a, fields) === JSON.stringify(b, fields);
};

/** Enlisting the same machine twice is a no-op; enlisting a different one under its id is refused. */
export const decideEnlist = (command: EnlistNode, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const reply = { nodeId: command.nodeId };
  if (state.profile === null) return accept([{ type: 'NodeEnlisted', data: { nodeId: command.nodeId, ...command.profile } }], reply);
  if (sameProfile(state.profile, command.profile)) return accept([], reply);
  return refuse('already_exists', `node ${command.nodeId} is already enlisted with a different profile`);
};
