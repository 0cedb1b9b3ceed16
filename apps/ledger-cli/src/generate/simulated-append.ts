import type { ExpectedRevision, NewEvent } from '@ledger/event-store';
import { LEDGER_UPCASTERS } from '@ledger/projections';
import type { SeededRandom } from './seeded-random';

/** One append the simulated ledger made, stamped with the simulated time it happened. */
export interface SimulatedAppend {
  stream: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
  at: Date;
}

/** An event as the ledger stamps it: a time-ordered id, its type's current schema version, who and why. */
export const envelope = (
  random: SeededRandom,
  now: number,
  event: { type: string; data: unknown },
  actor: string,
  correlationId: string,
  requestId: string | null,
): NewEvent => ({
  id: random.uuid(now),
  type: event.type,
  data: event.data,
  metadata: { correlationId, causationId: null, actor, requestId, schemaVersion: LEDGER_UPCASTERS.currentVersion(event.type) },
});
