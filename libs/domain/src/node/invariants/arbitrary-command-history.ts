import fc from 'fast-check';
import type { Who } from '../../testing';
import type { MarkDeployed, MarkDeploymentFailed, AcquireNode, ReleaseAllocation, StartDeployment } from '../node-commands';

export const WHO: Who[] = ['alice', 'bob', 'carol'];
/** Tiny on purpose: token uniqueness must come from (node, epoch), not from lucky entropy. */
export const ENTROPY_POOL = ['sameEntropyForAll', 'otherEntropy00000'];
export const OBSERVED_STATUSES = ['Ready', 'released', 'New', 'Failed Deployment', 'deploy_failed', 'Deployed', 'Deploying', 'Allocated'];
export const ENDINGS: ReleaseAllocation['ending'][] = ['released', 'force_released', 'model_released'];

/**
 * The abstract steps of a random command history ("release some token issued earlier,
 * reusing some earlier requestId"): command-history.ts turns each into a concrete command
 * against the world as it stands when it runs them.
 */
export type TokenPick = { kind: 'live' | 'issued' | 'otherNode' | 'madeUp'; pick: number };
export type RequestPick = { kind: 'fresh' | 'reuse' | 'none'; pick: number };
export type DeploymentReport = StartDeployment | MarkDeployed | MarkDeploymentFailed;
/** The commands that carry a requestId. */
export type RequestCommand = AcquireNode | ReleaseAllocation | DeploymentReport;

export type Step = { advance: number } & (
  | { kind: 'enlist'; node: number; differentProfile: boolean }
  | { kind: 'reserve'; node: number; ttl: number }
  | { kind: 'cancel'; node: number; rightId: boolean; rightKey: boolean }
  | { kind: 'acquire'; node: number; who: number; key: 'none' | 'right' | 'wrong' | 'old'; keyPick: number; request: RequestPick; entropy: number }
  | { kind: 'report'; report: DeploymentReport['type']; node: number; token: TokenPick; request: RequestPick }
  | { kind: 'release'; node: number; ending: number; token: TokenPick; request: RequestPick }
  | { kind: 'observe'; node: number; status: number; age: number; heldOutOfBand: boolean }
  | { kind: 'ownerData'; node: number; token: TokenPick; key: number; clear: boolean }
  | { kind: 'resend'; pick: number; sameBody: boolean }
);

/** n3 (unenlisted at first) less often, so most commands meet an enlisted node. */
const node = fc.constantFrom(0, 0, 1, 1, 2);
const pick = fc.nat({ max: 1000 });
const tokenPick = fc.record({ kind: fc.constantFrom('live', 'live', 'issued', 'issued', 'otherNode', 'madeUp'), pick }) as fc.Arbitrary<TokenPick>;
const requestPick = fc.record({ kind: fc.constantFrom('fresh', 'fresh', 'reuse', 'none'), pick }) as fc.Arbitrary<RequestPick>;

const stepArb: fc.Arbitrary<Step> = fc
  .tuple(
    fc.nat({ max: 6 }),
    fc.oneof(
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('enlist' as const), node, differentProfile: fc.boolean() }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('reserve' as const), node, ttl: fc.integer({ min: 1, max: 40 }) }) },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('cancel' as const),
          node,
          rightId: fc.constantFrom(true, true, false),
          rightKey: fc.constantFrom(true, true, false),
        }),
      },
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant('acquire' as const),
          node,
          who: fc.nat({ max: WHO.length - 1 }),
          key: fc.constantFrom('none' as const, 'right' as const, 'right' as const, 'wrong' as const, 'old' as const),
          keyPick: pick,
          request: requestPick,
          entropy: fc.nat({ max: ENTROPY_POOL.length - 1 }),
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('report' as const),
          report: fc.constantFrom('StartDeployment' as const, 'MarkDeployed' as const, 'MarkDeploymentFailed' as const),
          node,
          token: tokenPick,
          request: requestPick,
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('release' as const),
          node,
          ending: fc.nat({ max: ENDINGS.length - 1 }),
          token: tokenPick,
          request: requestPick,
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('observe' as const),
          node,
          status: fc.nat({ max: OBSERVED_STATUSES.length - 1 }),
          age: fc.nat({ max: 20 }),
          heldOutOfBand: fc.boolean(),
        }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('resend' as const), pick, sameBody: fc.boolean() }) },
      {
        weight: 2,
        arbitrary: fc.record({ kind: fc.constant('ownerData' as const), node, token: tokenPick, key: fc.nat({ max: 2 }), clear: fc.boolean() }),
      },
    ),
  )
  .map(([advance, step]) => ({ advance, ...step }));

export const historyArb = (maxLength = 50): fc.Arbitrary<Step[]> => fc.array(stepArb, { minLength: 1, maxLength, size: 'max' });
