import { describe, it } from 'node:test';
import { mintToken } from '../provisioning-token';
import type { NodeCommand } from './node-commands';
import { nodeDecider } from './node-decider';
import {
  NODE,
  OTHER_NODE,
  allocationReleased,
  allocationRevoked,
  at,
  markDeployed,
  markDeploymentFailed,
  nodeAcquired,
  nodeDeployed,
  nodeEnlisted,
  releaseAllocation,
  specFor,
  startDeployment,
  tokenFor,
} from '../testing';

/**
 * The fencing rule (seed 1, invariant 2): a command that names a token is accepted only
 * while that token is the node's live allocation. Anything else is refused and changes
 * nothing. A token the node issued but that is no longer live is `stale_token`, and the
 * refusal tells its holder what to do: forget the machine and leave the node alone, since
 * it may by now belong to someone else. A token the node never issued is `not_found`.
 */
const spec = specFor(nodeDecider);
const alices = tokenFor(1, 'alice');
const bobs = tokenFor(2, 'bob');

const everyTokenCommand = (token: string): NodeCommand[] => [
  startDeployment(token),
  markDeployed(token),
  markDeploymentFailed(token),
  releaseAllocation(token),
  releaseAllocation(token, { ending: 'force_released' }),
];

const label = (command: NodeCommand): string => (command.type === 'ReleaseAllocation' ? `${command.type} (${command.ending})` : command.type);

const FORGET = 'forget this machine; do not touch the node';

describe('a token whose allocation was released', () => {
  const history = [nodeEnlisted(), nodeAcquired('alice'), allocationReleased(alices, { at: at(5) })];

  for (const command of everyTokenCommand(alices)) {
    it(`${label(command)} is refused stale_token, telling the holder to forget the machine`, () => {
      spec.given(history).when(command).thenRefuses('stale_token', { nodeId: NODE, tokenEpoch: 1, currentEpoch: 1, ending: 'released', action: FORGET });
    });
  }
});

describe('a token whose allocation the provider revoked (released out of band)', () => {
  const history = [nodeEnlisted(), nodeAcquired('alice'), allocationRevoked(alices, 'ready', at(5))];

  for (const command of everyTokenCommand(alices)) {
    it(`${label(command)} is refused stale_token, with ending revoked`, () => {
      spec.given(history).when(command).thenRefuses('stale_token', { tokenEpoch: 1, ending: 'revoked', action: FORGET });
    });
  }
});

describe('an old token while someone else holds the node', () => {
  const history = [
    nodeEnlisted(),
    nodeAcquired('alice', { epoch: 1, at: at(1) }),
    allocationRevoked(alices, 'ready', at(5)),
    nodeAcquired('bob', { epoch: 2, at: at(6) }),
    nodeDeployed(bobs, at(8)),
  ];

  for (const command of everyTokenCommand(alices)) {
    it(`${label(command)} is refused stale_token, naming both epochs, and the new holder is untouched`, () => {
      spec.given(history).when(command).thenRefuses('stale_token', { tokenEpoch: 1, currentEpoch: 2, ending: 'revoked', action: FORGET });
      // The live holder's token still works.
      spec
        .given(history)
        .when(releaseAllocation(bobs))
        .then([allocationReleased(bobs)]);
    });
  }
});

describe('a token the node never issued', () => {
  const history = [nodeEnlisted(), nodeAcquired('alice')];
  const neverIssued = {
    'a well-formed token for this node with an epoch it never had': mintToken(NODE, 7, 'made-up-entropy-0000'),
    'the live epoch with other entropy (a guess)': mintToken(NODE, 1, 'guessed-entropy-0000'),
    "another node's token": tokenFor(1, 'alice', OTHER_NODE),
    'a string that is not a token at all': 'i-0123456789',
  };

  for (const [what, token] of Object.entries(neverIssued)) {
    it(`is not_found: ${what}`, () => {
      for (const command of everyTokenCommand(token))
        spec
          .given(history)
          .when({ ...command, nodeId: NODE })
          .thenRefuses('not_found');
    });
  }
});
