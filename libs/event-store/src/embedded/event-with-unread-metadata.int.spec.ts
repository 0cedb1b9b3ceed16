/**
 * A rebuild folds the log through readDataAfter, whose events leave their metadata unparsed
 * when its text says they are current: each must still be exactly what readAfter gives
 * (envelope, data and, once read, metadata), whatever the metadata holds and in whatever
 * order, an event from the future refused the same way, and the shortcut taken for the
 * metadata commands write.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { plainEnvelope, type NewEvent, type RecordedEvent } from '../envelope';
import { endsWithSchemaVersion, EventWithUnreadMetadata } from './event-with-unread-metadata';
import { SqliteReadOnlyEventStore } from './sqlite-read-only-store';
import { tempStoreFile } from './testing/temp-store-file';
import { jsonValueArb, metadataOf, sameRefusalAs, versionedEventArb, versionedUpcasters, writeVersionedEvents } from './testing/versioned-events';

/** Text that looks like the member the shortcut looks for, where it must not count: inside strings and nested objects. */
const decoyArb = fc.oneof(
  fc.constantFrom(',"schemaVersion":1}', '","schemaVersion":2}', '\\",\\"schemaVersion\\":1}'),
  fc.integer({ min: 0, max: 3 }).map((version) => ({ schemaVersion: version })),
  fc.integer({ min: 0, max: 3 }).map((version) => ({ deeper: { schemaVersion: version } })),
);
const memberValueArb = fc.oneof(jsonValueArb, decoyArb, fc.integer({ min: 0, max: 3 }));
/** Members in any order, `schemaVersion` among them or not, its value a version or not; half the time a version last. */
const metadataObjectArb = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom('schemaVersion', 'actor', 'note', 'nested', '1', 'schemaVersion ', 'note"schemaVersion'), memberValueArb), {
      maxLength: 6,
    }),
    fc.option(fc.integer({ min: 0, max: 3 })),
  )
  .map(([members, last]) => {
    const object: Record<string, unknown> = Object.fromEntries(members);
    if (last === null) return object;
    delete object.schemaVersion;
    return { ...object, schemaVersion: last };
  });

describe('endsWithSchemaVersion', () => {
  it('says yes only of metadata whose schemaVersion parses to that version', () => {
    fc.assert(
      fc.property(metadataObjectArb, fc.integer({ min: 0, max: 3 }), (object, version) => {
        const text = JSON.stringify(object);
        if (endsWithSchemaVersion(text, version)) assert.equal((JSON.parse(text) as { schemaVersion?: unknown }).schemaVersion, version);
      }),
      { numRuns: 3000 },
    );
  });

  it('says yes of metadata written with schemaVersion last, as commands write it', () => {
    fc.assert(
      fc.property(metadataObjectArb, fc.integer({ min: 1, max: 40 }), (object, version) => {
        const { schemaVersion: _, ...rest } = object as Record<string, unknown>;
        assert.ok(endsWithSchemaVersion(JSON.stringify({ ...rest, schemaVersion: version }), version));
        assert.ok(!endsWithSchemaVersion(JSON.stringify({ ...rest, schemaVersion: version }), version + 1));
      }),
    );
  });
});

/** How the metadata of an event is written: as commands write it, `schemaVersion` first, or with decoys around it. */
const metadataStyleArb = fc.constantFrom('command', 'versionFirst', 'decoys');
const metadataIn = (style: string, index: number, version: number | undefined, decoy: unknown): NewEvent['metadata'] => {
  const written = metadataOf(index, version);
  if (style === 'command') return written;
  const { schemaVersion, ...rest } = written;
  const member = version === undefined ? {} : { schemaVersion };
  return (style === 'versionFirst' ? { ...member, ...rest } : { ...rest, note: decoy, ...member }) as NewEvent['metadata'];
};

describe('readDataAfter', () => {
  it('gives each event exactly as readAfter does, metadata included, and refuses what readAfter refuses', async () => {
    const eventArb = fc.record({ event: versionedEventArb(jsonValueArb), style: metadataStyleArb, decoy: decoyArb });
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 7 }), async (written, pageSize) => {
        const temp = await tempStoreFile('unread-metadata');
        try {
          await writeVersionedEvents(
            temp.file,
            written.map(({ event }) => event),
            (event, i) => metadataIn(written[i].style, i, event.version, written[i].decoy),
          );
          const store = SqliteReadOnlyEventStore.open({ file: temp.file, upcasters: versionedUpcasters });
          try {
            for (let after = 0; ;) {
              let expected: RecordedEvent[];
              try {
                expected = store.readAfter(after, pageSize);
              } catch (error) {
                assert.throws(() => store.readDataAfter(after, pageSize), sameRefusalAs(error));
                return;
              }
              if (expected.length === 0) return;
              const actual = store.readDataAfter(after, pageSize);
              assert.deepStrictEqual(actual.map(plainEnvelope), expected.map(plainEnvelope));
              // Metadata written as commands write it, with the type's current version, is left unparsed.
              for (const event of actual) {
                const { event: source, style } = written[Number(event.id.slice(1))];
                if (style === 'command' && source.version === versionedUpcasters.currentVersion(source.type))
                  assert.ok(event instanceof EventWithUnreadMetadata, `${event.id} was parsed whole`);
              }
              after = expected[expected.length - 1].position;
            }
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
});
