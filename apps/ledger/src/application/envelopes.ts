import type { NewEvent } from '@ledger/event-store';
import { LEDGER_UPCASTERS } from '@ledger/projections';
import type { RequestContext } from './request-context';
import type { Randomness } from '../infrastructure/randomness';

/** Wraps domain events in the one envelope, stamping who and why, and the shape (schema version) of each event's data. */
export const toNewEvents = (
  events: ReadonlyArray<{ type: string; data: unknown }>,
  context: RequestContext,
  newId: () => string,
  causationId: string | null = null,
): NewEvent[] =>
  events.map((event) => ({
    id: newId(),
    type: event.type,
    data: event.data,
    metadata: {
      correlationId: context.correlationId,
      causationId,
      actor: context.actor,
      requestId: context.requestId,
      schemaVersion: LEDGER_UPCASTERS.currentVersion(event.type),
    },
  }));

/** How every command service stamps its events and jitters its retries: one place. */
export const commandHandlingOptions = (context: RequestContext, random: Randomness, causationId: string | null = null) => ({
  toNewEvents: (events: ReadonlyArray<{ type: string; data: unknown }>) => toNewEvents(events, context, () => random.uuid(), causationId),
  random: () => random.fraction(),
});
