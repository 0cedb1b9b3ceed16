import fc from 'fast-check';
import type { NewEvent } from '../../envelope';
import { UpcasterRegistry } from '../../upcasting/upcaster-registry';
import { SqliteEventStore } from '../sqlite-event-store';

/** Version 1 of `Renamed` called `token` `oldToken`; version 2 is current. `Plain` has one version. */
export const versionedUpcasters = new UpcasterRegistry([
  {
    type: 'Renamed',
    fromVersion: 1,
    upcast: (data) => {
      const { oldToken, ...rest } = data as Record<string, unknown>;
      return { ...rest, token: oldToken };
    },
  },
]);

/** Any JSON value, and now and then a string: empty, escaped, beyond the BMP, holding a lone surrogate (a client may send one). */
export const jsonValueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '"\\\n\u0000\u001f', 'é😀', 'a\ud800b'),
);

/** An object whose keys, if any, are among `keys`, holding any JSON values. */
export const objectOf = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), jsonValueArb, { maxKeys: keys.length });

/** An event to append: its type, its data's schema version (undefined: none stored, so 1), its data and stream. */
export interface VersionedEvent<Data = unknown> {
  type: 'Plain' | 'Renamed';
  version: number | undefined;
  data: Data;
  stream: string;
}

/** Versions 1 (or none: 1) and, for `Renamed`, 2 (current); now and then 3, from the future. */
export const versionedEventArb = <Data>(dataArb: fc.Arbitrary<Data>): fc.Arbitrary<VersionedEvent<Data>> =>
  fc
    .record({
      type: fc.constantFrom('Plain' as const, 'Renamed' as const),
      version: fc.oneof({ weight: 40, arbitrary: fc.constantFrom(undefined, 1, 2) }, { weight: 1, arbitrary: fc.constant(3) }),
      data: dataArb,
      stream: fc.constantFrom('node-a', 'ip-10.0.0.1', 'refusals-é'),
    })
    .map((event) => (event.type === 'Plain' && event.version === 2 ? { ...event, version: 1 } : event));

/** The envelope's metadata as a command writes it, with `schemaVersion` last (left out when undefined). */
export const metadataOf = (index: number, version: number | undefined): NewEvent['metadata'] => {
  const metadata = { correlationId: `c${index}`, causationId: null, actor: 'test', requestId: null, schemaVersion: version } as NewEvent['metadata'];
  if (version === undefined) delete (metadata as { schemaVersion?: number }).schemaVersion;
  return metadata;
};

/** Appends the events to a new store at `file`, one commit each (metadata: `metadata`, else metadataOf), and closes it. */
export const writeVersionedEvents = async (
  file: string,
  events: readonly VersionedEvent[],
  metadata: (event: VersionedEvent, index: number) => NewEvent['metadata'] = (event, index) => metadataOf(index, event.version),
): Promise<void> => {
  const writer = await SqliteEventStore.open({ file });
  try {
    for (const [i, event] of events.entries())
      await writer.appendToStream(event.stream, [{ id: `e${i}`, type: event.type, data: event.data, metadata: metadata(event, i) }], 'any');
  } finally {
    await writer.close();
  }
};

/** For assert.throws: an error of the same class with the same message as `refused` (two readers refusing one event alike). */
export const sameRefusalAs =
  (refused: unknown) =>
  (other: Error): boolean =>
    other.constructor === (refused as Error).constructor && other.message === (refused as Error).message;
