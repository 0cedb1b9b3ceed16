/**
 * The audit index's rebuild thread reads the log through readFieldsAfter, where SQLite picks
 * the fields out of each event's data and splices its envelope: what it hands over must be
 * exactly what parsing the event in JavaScript gives (readAfterWithJson, then the string at
 * each path), for any data, also through upcasters, and an event from the future is refused
 * as every other reader refuses it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RecordedEvent } from '../envelope';
import { stringAt, type DataPath } from './event-fields';
import { SqliteEventStore } from './sqlite-event-store';
import { SqliteReadOnlyEventStore } from './sqlite-read-only-store';
import { tempStoreFile } from './testing/temp-store-file';
import {
  jsonValueArb as valueArb,
  objectOf,
  sameRefusalAs,
  versionedEventArb,
  versionedUpcasters as upcasters,
  writeVersionedEvents,
} from './testing/versioned-events';

const PATHS: DataPath[] = [['nodeId'], ['token'], ['owner', 'token'], ['owner', 'nodeId'], ['consumer', 'model'], ['a', 'b', 'c']];

const nestedArb = fc.record(
  {
    owner: fc.oneof(objectOf(['token', 'nodeId']), valueArb),
    consumer: fc.oneof(objectOf(['model']), valueArb),
    a: fc.oneof(fc.record({ b: objectOf(['c']) }), valueArb),
  },
  { requiredKeys: [] },
);
/** Mostly objects with the paths' keys (present or not, strings or not), now and then any JSON value at all. */
const dataArb = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(objectOf(['nodeId', 'token', 'oldToken', 'x']), nestedArb).map(([top, nested]) => ({ ...top, ...nested })) },
  { weight: 1, arbitrary: valueArb },
);
const eventArb = versionedEventArb(dataArb);

describe('readFieldsAfter', () => {
  it('gives each event the strings at the paths asked for and the JSON that parsing it in JavaScript gives, and the same with the fields given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 7 }), async (events, pageSize) => {
        const temp = await tempStoreFile('event-fields');
        try {
          await writeVersionedEvents(temp.file, events);
          const store = SqliteReadOnlyEventStore.open({ file: temp.file, upcasters });
          try {
            // A version past the type's current one (2 of `Renamed`, 1 of `Plain`) is from the future: no page holding it is read.
            const future = events.some((event) => (event.version ?? 1) > upcasters.currentVersion(event.type));
            const expected: unknown[] = [];
            const actual: unknown[] = [];
            for (let after = 0; ;) {
              let parsed: RecordedEvent[];
              try {
                parsed = store.readAfter(after, pageSize);
              } catch (error) {
                // A page the parsing reader refuses (an event from the future, or one its upcaster
                // cannot take: this one's destructures null), the other refuses with the same error.
                assert.throws(() => store.readFieldsAfter(after, pageSize, PATHS), sameRefusalAs(error));
                return;
              }
              if (parsed.length === 0) break;
              parsed.forEach((event) =>
                expected.push({
                  position: event.position,
                  type: event.type,
                  stream: event.stream,
                  recordedAt: event.recordedAt,
                  fields: PATHS.map((path) => stringAt(event.data, path)),
                }),
              );
              actual.push(...store.readFieldsAfter(after, pageSize, PATHS));
              // The same page with the fields given by a reader that parsed it: only where each event is comes from SQLite.
              const given = parsed.flatMap((event) => PATHS.map((path) => stringAt(event.data, path)));
              assert.deepStrictEqual(store.readFieldsAfter(after, parsed.length, PATHS, given), actual.slice(-parsed.length));
              assert.throws(() => store.readFieldsAfter(after, parsed.length, PATHS, given.slice(PATHS.length)), /fields given for/);
              after = parsed[parsed.length - 1].position;
            }
            assert.ok(!future, 'an event from the future was read');
            assert.deepStrictEqual(actual, expected);
          } finally {
            await store.close();
          }
        } finally {
          await temp.remove();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a path that is not plain keys, rather than build SQL from it', async () => {
    const temp = await tempStoreFile('event-fields-path');
    try {
      await (await SqliteEventStore.open({ file: temp.file })).close();
      const store = SqliteReadOnlyEventStore.open({ file: temp.file });
      try {
        for (const path of [[], ["a' OR 1"], ['a', 'b.c'], ['1a']]) assert.throws(() => store.readFieldsAfter(0, 10, [path]), TypeError);
      } finally {
        await store.close();
      }
    } finally {
      await temp.remove();
    }
  });
});
