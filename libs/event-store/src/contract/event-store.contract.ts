import { after, before, describe, it } from 'node:test';
import { describeAppendContract } from './append.contract';
import { describeAppendModelContract } from './append-model.contract';
import { describeConcurrencyContract } from './concurrency.contract';
import type { ContractSubject, ContractSubjectFactory } from './contract-subject';
import { describeReadContract } from './read.contract';
import { describeSubscriptionContract } from './subscription.contract';
import { describePositionsAndResumeContract } from './positions-and-resume.contract';

export type { ContractSubject, ContractSubjectFactory } from './contract-subject';

/**
 * The contract every EventStore adapter must pass. An adapter's spec file calls this;
 * it is not a spec itself. The cases only touch fresh, randomly named streams and read
 * the global log relative to the head at their start, so they also run against a
 * shared store that already holds events and is written to by others.
 *
 * Registers the whole suite under `describe(adapterName)`. Pass { skip: 'reason' } to
 * report it as skipped (node:test prints the reason as SKIP), e.g. when no server is configured.
 */
export function describeEventStoreContract(adapterName: string, factory: ContractSubjectFactory | { skip: string }): void {
  if (typeof factory !== 'function') {
    // A skipped test inside, so the runner's summary counts it as skipped, not as nothing.
    describe(adapterName, () => {
      it('runs the event store contract', { skip: factory.skip }, () => undefined);
    });
    return;
  }
  describe(adapterName, () => {
    let subject: ContractSubject | undefined;
    before(async () => {
      subject = await factory();
    });
    after(async () => {
      await subject?.dispose();
    });
    const current = (): ContractSubject => {
      if (!subject) throw new Error(`${adapterName}: the contract subject did not open`);
      return subject;
    };

    describeAppendContract(current);
    describeReadContract(current);
    describeConcurrencyContract(current);
    describeSubscriptionContract(current);
    describeAppendModelContract(current);
    describePositionsAndResumeContract(current);
  });
}
