import { describe, it } from 'node:test';
import { nodeDecider } from './node-decider';
import {
  NODE,
  PROFILE,
  acquireNode,
  at,
  cancelReservation,
  enlistNode,
  markDeployed,
  markDeploymentFailed,
  nodeEnlisted,
  observeProviderStatus,
  releaseAllocation,
  reserveNode,
  specFor,
  startDeployment,
  tokenFor,
} from '../testing';

const spec = specFor(nodeDecider);

describe('enlisting a node', () => {
  it('records a machine the ledger has never seen, with its profile', () => {
    spec.given([]).when(enlistNode()).then([nodeEnlisted()]).thenReplies({ nodeId: NODE });
  });

  it('is a no-op when the same machine is enlisted again (providers re-send their inventory)', () => {
    spec.given([nodeEnlisted()]).when(enlistNode()).thenNothingHappens().thenReplies({ nodeId: NODE });
  });

  it('treats a profile as the same whatever order its fields arrive in', () => {
    const { zone, tags, memoryMb, cpuCount, arch, hostname } = PROFILE;
    spec.given([nodeEnlisted()]).when(enlistNode({ zone, tags, memoryMb, cpuCount, arch, hostname })).thenNothingHappens();
  });

  it("records the provider's resource pool when it names one, and a machine moved to another pool is another profile", () => {
    const inGold = { ...PROFILE, pool: 'gold' };
    spec
      .given([])
      .when(enlistNode(inGold))
      .then([nodeEnlisted(inGold)]);
    spec
      .given([nodeEnlisted(inGold)])
      .when(enlistNode(inGold))
      .thenNothingHappens();
    spec
      .given([nodeEnlisted(inGold)])
      .when(enlistNode({ ...PROFILE, pool: 'bronze' }))
      .thenRefuses('already_exists');
  });

  it('refuses a different machine under an id already in use: already_exists', () => {
    spec
      .given([nodeEnlisted()])
      .when(enlistNode({ ...PROFILE, hostname: 'impostor.scapestack' }))
      .thenRefuses('already_exists');
    spec
      .given([nodeEnlisted()])
      .when(enlistNode({ ...PROFILE, memoryMb: 32768 }))
      .thenRefuses('already_exists');
    spec
      .given([nodeEnlisted()])
      .when(enlistNode({ ...PROFILE, tags: ['virtual'] }))
      .thenRefuses('already_exists');
  });
});

describe('a node the ledger has never enlisted', () => {
  const token = tokenFor(1, 'alice');
  const everyOtherCommand = [
    reserveNode(),
    cancelReservation(),
    acquireNode('alice'),
    startDeployment(token),
    markDeployed(token),
    markDeploymentFailed(token),
    releaseAllocation(token),
    observeProviderStatus('Ready', at(10)),
  ];

  for (const command of everyOtherCommand) {
    it(`answers ${command.type} with not_found`, () => {
      spec.given([]).when(command).thenRefuses('not_found');
    });
  }
});
