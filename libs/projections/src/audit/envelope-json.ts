import type { RecordedEvent } from '@ledger/event-store';

/** An event as audit queries and exports print it: the one envelope, in a fixed field order. */
export const envelopeJson = (event: RecordedEvent): string =>
  JSON.stringify({
    id: event.id,
    type: event.type,
    stream: event.stream,
    revision: event.revision,
    position: event.position,
    recordedAt: event.recordedAt,
    data: event.data,
    metadata: event.metadata,
  });
