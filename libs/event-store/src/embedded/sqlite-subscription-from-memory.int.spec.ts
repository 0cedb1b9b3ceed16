import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { NewEvent, RecordedEvent } from '../envelope';
import { SqliteEventStore } from './sqlite-event-store';
import { tempStoreFile } from './testing/temp-store-file';
import { testEvent } from './testing/test-events';
import { waitUntil } from './testing/wait-until';

/** One step of a generated history: who appends what, and how. */
type Step =
  | { kind: 'mine'; stream: number; events: number }
  | { kind: 'other-process'; stream: number; events: number }
  | { kind: 'retry-mine' }
  | { kind: 'stale-revision'; stream: number }
  | { kind: 'one-batch'; streams: number[] };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('mine' as const), stream: fc.nat(3), events: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('other-process' as const), stream: fc.nat(3), events: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('retry-mine' as const) }),
  fc.record({ kind: fc.constant('stale-revision' as const), stream: fc.nat(3) }),
  fc.record({ kind: fc.constant('one-batch' as const), streams: fc.array(fc.nat(3), { minLength: 2, maxLength: 5 }) }),
);

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    () => undefined,
  );

describe('embedded store: a live subscription handed its own commits from memory', () => {
  it('delivers exactly the log, in order, envelope JSON included, whatever another process appends in between', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const temp = await tempStoreFile('from-memory');
        const mine = await SqliteEventStore.open({ file: temp.file, pollIntervalMs: 10 });
        const other = await SqliteEventStore.open({ file: temp.file });
        const subscription = mine.subscribeToAll();
        const delivered: RecordedEvent[] = [];
        const consuming = (async () => {
          for await (const event of subscription) delivered.push(event);
        })();
        try {
          const appended: { stream: string; events: NewEvent[] }[] = [];
          for (const next of steps) {
            if (next.kind === 'mine' || next.kind === 'other-process') {
              const events = Array.from({ length: next.events }, () => testEvent({ step: next.kind }));
              const stream = `node-${next.stream}`;
              await (next.kind === 'mine' ? mine : other).appendToStream(stream, events, 'any');
              if (next.kind === 'mine') appended.push({ stream, events });
            } else if (next.kind === 'retry-mine' && appended.length > 0) {
              const { stream, events } = appended[appended.length - 1];
              await mine.appendToStream(stream, events, 'any');
            } else if (next.kind === 'stale-revision') {
              await rejection(mine.appendToStream(`node-${next.stream}`, [testEvent()], 'no_stream'));
            } else if (next.kind === 'one-batch') {
              // Submitted in one turn, so group commit writes them in one transaction, refusals in between.
              await Promise.all(
                next.streams.map((stream, index) =>
                  index % 2 === 0
                    ? mine.appendToStream(`node-${stream}`, [testEvent()], 'any')
                    : rejection(mine.appendToStream(`node-${stream}`, [testEvent()], 'no_stream')),
                ),
              );
            }
          }
          const log = await other.readAll({ maxCount: 10_000 });
          const head = log.length === 0 ? 0 : log[log.length - 1].position;
          await waitUntil(() => (delivered[delivered.length - 1]?.position ?? 0) >= head, `delivered up to position ${head}`);
          assert.deepEqual(delivered, log);
        } finally {
          await subscription.close();
          await consuming;
          await mine.close();
          await other.close();
          await temp.remove();
        }
      }),
      { numRuns: 30 },
    );
  });
});
