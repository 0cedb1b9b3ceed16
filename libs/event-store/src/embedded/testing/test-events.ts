import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../envelope';

/** A minimal valid event for the embedded store's own tests. */
export const testEvent = (data: unknown = {}): NewEvent => ({
  id: randomUUID(),
  type: 'TestEventRecorded',
  data,
  metadata: { correlationId: randomUUID(), causationId: null, actor: 'test', requestId: null, schemaVersion: 1 },
});

export const testEvents = (count: number): NewEvent[] => Array.from({ length: count }, (_, index) => testEvent({ index }));
