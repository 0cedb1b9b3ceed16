import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isConcurrencyError } from '../concurrency-error';
import type { NewEvent } from '../envelope';
import type { AppendResult, EventStore } from '../event-store.port';
import type { CurrentSubject } from './contract-subject';
import { freshStream, idsOf, newEvent, newEvents } from './contract-fixtures';

const RACERS = 30;

/** Starts every append at once and checks that exactly one of them won. */
const raceOnOneStream = async (stores: EventStore[], stream: string): Promise<void> => {
  const created = newEvent();
  await stores[0].appendToStream(stream, [created], 'no_stream');
  const attempts: NewEvent[][] = Array.from({ length: RACERS }, () => newEvents(2));
  const outcomes = await Promise.allSettled(attempts.map((events, index) => stores[index % stores.length].appendToStream(stream, events, 0)));

  const winners = outcomes.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
  assert.equal(winners.length, 1, `exactly one winner, got ${winners.length}`);
  const [winner] = winners;
  assert.equal((outcomes[winner] as PromiseFulfilledResult<AppendResult>).value.nextExpectedRevision, 2);
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') continue;
    assert.ok(isConcurrencyError(outcome.reason), `a loser gets a ConcurrencyError, got ${String(outcome.reason)}`);
    assert.equal(outcome.reason.stream, stream);
    assert.equal(outcome.reason.expected, 0);
    assert.equal(outcome.reason.actual, 2);
  }
  for (const store of stores) {
    assert.deepEqual(idsOf(await store.readStream(stream)), [created.id, ...idsOf(attempts[winner])]);
  }
};

/** Optimistic concurrency under real contention, within one handle and across two. */
export const describeConcurrencyContract = (current: CurrentSubject): void => {
  describe('concurrent appends with the same expected revision', () => {
    it(`let exactly one of ${RACERS} win; the others get ConcurrencyErrors and the stream holds only the winner's events`, async () => {
      await raceOnOneStream([current().store], freshStream('race'));
    });

    it('let exactly one win when they race through two independent handles', async () => {
      const subject = current();
      const other = await subject.openAnother();
      try {
        await raceOnOneStream([subject.store, other], freshStream('race-two-handles'));
      } finally {
        await other.close();
      }
    });
  });
};
