import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isConcurrencyError } from '../concurrency-error';
import type { EventMetadata, NewEvent, RecordedEvent } from '../envelope';
import type { EventStore } from '../event-store.port';
import type { ActualRevision, ExpectedRevision } from '../expected-revision';

/**
 * Helpers for the contract suite. The suite must also run against a shared store that
 * already holds other events and may be written to meanwhile: every case uses fresh
 * stream names, and reads of the global log start at the head taken when the case
 * starts and keep only the case's own streams.
 */

export const freshStream = (label: string): string => `contract-${label}-${randomUUID()}`;

export const contractMetadata = (): EventMetadata => ({
  correlationId: randomUUID(),
  causationId: null,
  actor: 'event-store-contract',
  requestId: null,
  schemaVersion: 1,
});

export const newEvent = (data: unknown = { note: 'contract' }, type = 'ContractEventRecorded'): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: contractMetadata(),
});

export const newEvents = (count: number): NewEvent[] => Array.from({ length: count }, (_, index) => newEvent({ index }));

export const idsOf = (events: readonly { id: string }[]): string[] => events.map((event) => event.id);

/** Asserts the append was refused with a ConcurrencyError carrying exactly these fields. */
export const assertConcurrencyError = async (
  append: Promise<unknown>,
  conflict: { stream: string; expected: ExpectedRevision; actual: ActualRevision },
): Promise<void> => {
  await assert.rejects(append, (error: unknown) => {
    assert.ok(isConcurrencyError(error), `expected a ConcurrencyError, got ${String(error)}`);
    assert.deepEqual({ stream: error.stream, expected: error.expected, actual: error.actual }, conflict);
    return true;
  });
};

/** Pages through readAll after `fromPosition` to the end, keeping only the given streams. */
export const readAllOf = async (store: EventStore, fromPosition: number, streams: ReadonlySet<string>, pageSize = 100): Promise<RecordedEvent[]> => {
  const own: RecordedEvent[] = [];
  let after = fromPosition;
  for (;;) {
    const page = await store.readAll({ fromPosition: after, maxCount: pageSize });
    if (page.length === 0) return own;
    assert.ok(page.length <= pageSize, `readAll returned ${page.length} events for maxCount ${pageSize}`);
    own.push(...page.filter((event) => streams.has(event.stream)));
    after = page[page.length - 1].position;
  }
};

export const assertStrictlyIncreasing = (positions: readonly number[], what: string): void => {
  positions.forEach((position, index) => {
    if (index > 0) assert.ok(position > positions[index - 1], `${what}: position ${position} follows ${positions[index - 1]}`);
  });
};

/** Polls `condition` until it holds; fails after `timeoutMs` with `what`. */
export const eventually = async (condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> => {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** Resolves with the promise, or fails once `timeoutMs` has passed. */
export const within = async <T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
};
