import type { EventStore } from '@ledger/event-store';
import { UNTRACKED } from '../runtime/collection-changes';
import type { Projection } from '../runtime/projection';
import type { SnapshotReader } from '../runtime/snapshots/snapshot-reader';
import { eventAtOrAfter } from './point-in-log';

export interface StateAt<State> {
  state: State;
  /** The position asked for: the state reflects every event up to it. */
  position: number;
  /** When the last event folded was recorded (null before the first event). */
  lastRecordedAt: string | null;
  /** The snapshot the fold started from, if any. */
  snapshot: number | null;
  /** Events folded after the snapshot. */
  folded: number;
}

const PAGE = 1_000;

/**
 * A projection as it stood at `position`: the nearest snapshot at or before it, then
 * the log folded up to it with the projection's own apply. A snapshot only saves work:
 * the result is the fold of the log from zero to `position`.
 */
export const stateAt = async <State extends { position: number }>(
  store: EventStore,
  projection: Projection<State>,
  position: number,
  snapshots: SnapshotReader | null,
): Promise<StateAt<State>> => {
  const snapshot = snapshots?.nearest(position) ?? null;
  const state = (snapshot !== null ? snapshots!.load(snapshot, projection.initialState) : null) ?? projection.initialState();
  let folded = 0;
  let lastRecordedAt: string | null = null;
  let cursor = state.position;
  for (;;) {
    const page = await store.readAll({ fromPosition: cursor, maxCount: PAGE });
    let reached = page.length === 0;
    for (const event of page) {
      if (event.position > position) {
        reached = true;
        break;
      }
      projection.apply(state, event, UNTRACKED);
      cursor = event.position;
      lastRecordedAt = event.recordedAt;
      folded++;
    }
    if (reached) break;
  }
  if (lastRecordedAt === null && cursor > 0) lastRecordedAt = (await eventAtOrAfter(store, cursor))?.recordedAt ?? null;
  return { state, position, lastRecordedAt, snapshot, folded };
};
