import type { RecordedEvent as ClientRecordedEvent } from '@eventstore/db-client';
import type { RecordedEvent } from '../envelope';
import { toRecordedEvent, UnreadableEventError } from './event.mapping';
import { isSystemEvent } from './system-events';

/** An event in $all that the ledger did not write: what is known of it, and why it is not the ledger's. */
export interface ForeignEvent {
  id: string;
  stream: string;
  type: string;
  reason: string;
}

/** Told of every foreign event skipped (the app logs a warning and counts it). */
export type ForeignEventHandler = (event: ForeignEvent) => void;

/**
 * The ledger envelope of an $all entry, or null for everything that is not the ledger's:
 * EventStoreDB's own events (silently) and events other writers put in the same database
 * (user projections' output, other applications), reported to `onForeign`. $all holds them
 * all; a projector that stopped at the first foreign event would freeze for good, since
 * resuming meets the same event again.
 */
export function ledgerEventOf(event: ClientRecordedEvent, onForeign: ForeignEventHandler): RecordedEvent | null {
  if (isSystemEvent(event)) return null;
  try {
    return toRecordedEvent(event);
  } catch (error) {
    if (!(error instanceof UnreadableEventError)) throw error;
    onForeign({ id: event.id, stream: event.streamId, type: event.type, reason: error.message });
    return null;
  }
}
