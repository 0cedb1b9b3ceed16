import type { EventStore, RecordedEvent } from '@ledger/event-store';
import { applyEvent } from '../ledger-view/apply-event';
import { UNTRACKED } from '../runtime/collection-changes';
import { emptyLedgerView, type LedgerViewState } from '../ledger-view/views';

/** The streams one question is about: a node's own, an address's, or a model's nodes'. */
export interface HistoryScope {
  streams: string[];
}

export interface ScopedStateAt {
  /** The ledger view folded from the scope's streams only: exact for every entity the scope owns. */
  view: LedgerViewState;
  /** The position asked for: the view reflects every event of the scope up to it. */
  position: number;
  /** When the last folded event was recorded (null if none was). */
  lastRecordedAt: string | null;
  /** Events folded (all of them from the scope, none skipped). */
  folded: number;
  streams: number;
}

/**
 * Merges already-ordered streams by global position, up to `position`. Each stream is
 * in revision order, which is also global order, so a k-way merge keeps the log's order.
 */
export const mergeByPosition = (streams: RecordedEvent[][], position: number): RecordedEvent[] => {
  const merged = streams.flat().filter((event) => event.position <= position);
  return merged.sort((a, b) => a.position - b.position);
};

/**
 * The ledger view as it stood at `position`, folded from only the streams of a scope
 * (a node's stream and the address streams its leases live on): the same `applyEvent`
 * as the whole-ledger fold, so every entity whose events are all in those streams is
 * exactly what the whole fold says. Cost grows with the scope's history, not the log's.
 */
export const scopedStateAt = async (store: Pick<EventStore, 'readStream'>, scope: HistoryScope, position: number): Promise<ScopedStateAt> => {
  const streams = await Promise.all([...new Set(scope.streams)].map((stream) => store.readStream(stream)));
  const events = mergeByPosition(streams, position);
  const view = emptyLedgerView();
  for (const event of events) applyEvent(view, event, UNTRACKED);
  // The view's position is the scope's last event; the answer reflects the position asked for.
  return { view, position, lastRecordedAt: events.length > 0 ? events[events.length - 1].recordedAt : null, folded: events.length, streams: streams.length };
};
