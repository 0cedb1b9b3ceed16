import type { NewEvent } from '@ledger/event-store';
import type { RequestContext } from './request-context';

export const SCHEMA_VERSION = 1;

/** Wraps domain events in the one envelope, stamping who and why. */
export const toNewEvents = (events: ReadonlyArray<{ type: string; data: unknown }>, context: RequestContext, newId: () => string, causationId: string | null = null): NewEvent[] =>
  events.map((event) => ({
    id: newId(),
    type: event.type,
    data: event.data,
    metadata: {
      correlationId: context.correlationId,
      causationId,
      actor: context.actor,
      requestId: context.requestId,
      schemaVersion: SCHEMA_VERSION,
    },
  }));
