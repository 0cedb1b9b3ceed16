/** How one event type's data changed shape: from `fromVersion` to the next version. A pure function. */
export interface EventUpcaster {
  type: string;
  fromVersion: number;
  upcast(data: unknown): unknown;
}

/**
 * Every change of an event's data shape, oldest first. Events are never rewritten: a
 * log written by older code is read through these (see UpcasterRegistry), and adding
 * one here bumps the schema version new events of that type are written with.
 *
 * When an event's data changes shape: change its type in this library, add the
 * upcaster from the old version here, and a case to upcasting.int.spec.ts.
 * Empty while every event type is at version 1.
 */
export const EVENT_UPCASTERS: readonly EventUpcaster[] = [];
