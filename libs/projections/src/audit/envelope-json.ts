import { plainEnvelope, type RecordedEvent } from '@ledger/event-store';

/** An event as audit queries and exports print it: the one envelope, in a fixed field order. */
export const envelopeJson = (event: RecordedEvent): string => JSON.stringify(plainEnvelope(event));
