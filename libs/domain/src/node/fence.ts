import { refuse, type Refusal } from '../core';
import type { LiveAllocation, NodeState } from './node-state';

/**
 * The fencing rule: a command naming a token is accepted only while that token is
 * the node's live allocation. A stale token's holder is told to forget its machine
 * and not to touch the node, which by now may belong to someone else.
 */
export const fence = (state: NodeState, token: string): { allocation: LiveAllocation } | { refusal: Refusal } => {
  const issued = state.issuedTokens.get(token);
  if (!issued) return { refusal: refuse('not_found', `no allocation with token ${token}`).refusal };
  if (state.allocation?.token === token) return { allocation: state.allocation };
  return {
    refusal: refuse('stale_token', "this token is no longer the node's live allocation", {
      nodeId: state.nodeId,
      tokenEpoch: issued.epoch,
      currentEpoch: state.epoch,
      ending: issued.ending,
      action: 'forget this machine; do not touch the node',
    }).refusal,
  };
};
