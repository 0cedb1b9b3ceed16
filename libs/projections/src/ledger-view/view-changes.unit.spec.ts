/**
 * The ledger view's fold reports every entity it adds or changes (stamp): snapshots and
 * checkpoints store only what was reported, so an entity changed unreported would be
 * missing from them. Over histories the real deciders wrote, after every event and for
 * every position a save could be taken against, what the tracking says changed is exactly
 * the entities whose `lastPosition` (which the fold stamps with every change) moved past it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { appendsOf, generatedHistoriesArb } from '../rebuild/testing/generated-log';
import { TrackedState } from '../runtime/snapshots/tracked-collections';
import { ledgerProjection } from './ledger-projection';
import type { LedgerViewState } from './views';

/** The appends as the log would record them: positions from 1, revisions per stream. */
const recordedOf = (appends: ReturnType<typeof appendsOf>): RecordedEvent[] => {
  const revisions = new Map<string, number>();
  let position = 0;
  return appends.flatMap(({ stream, events }) =>
    events.map((event) => {
      const revision = (revisions.get(stream) ?? -1) + 1;
      revisions.set(stream, revision);
      position++;
      return { ...event, stream, revision, position, recordedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, position)).toISOString() } as RecordedEvent;
    }),
  );
};

const changedByStamp = (view: LedgerViewState, field: keyof LedgerViewState, since: number): string[] =>
  Object.entries(view[field] as Record<string, { lastPosition: number }>)
    .filter(([, entity]) => entity.lastPosition > since)
    .map(([key]) => key)
    .sort();

describe('the ledger view’s fold reports what it changes', () => {
  it('tracking finds, since any position, exactly the entities whose lastPosition moved past it', () => {
    fc.assert(
      fc.property(generatedHistoriesArb(30), (histories) => {
        const events = recordedOf(appendsOf(histories));
        const view = ledgerProjection.initialState();
        const tracking = new TrackedState(view);
        for (const event of events) {
          ledgerProjection.apply(view, event, tracking);
          for (const [field, collection] of tracking.collections()) {
            for (let since = 0; since <= view.position; since++) {
              const reported: string[] = [];
              collection.forEachChangedSince(since, (key, entity) => {
                assert.equal(entity, collection.target[key], `${field}.${key}: the entity reported is the one in the view`);
                reported.push(key);
              });
              assert.deepStrictEqual(reported.sort(), changedByStamp(view, field as keyof LedgerViewState, since), `${field} since ${since}`);
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
