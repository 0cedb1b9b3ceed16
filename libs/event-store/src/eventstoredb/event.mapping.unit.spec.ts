import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { RecordedEvent as ClientRecordedEvent } from '@eventstore/db-client';
import type { EventMetadata, NewEvent } from '../envelope';
import { InvalidEventError, UnreadableEventError, toEventData, toRecordedEvent } from './event.mapping';

const metadata: EventMetadata = {
  correlationId: 'req-1',
  causationId: null,
  actor: 'juju-controller-7',
  requestId: 'acquire-42',
  schemaVersion: 1,
};

const newEvent = (overrides: Partial<NewEvent> = {}): NewEvent => ({
  id: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
  type: 'NodeAcquired',
  data: { nodeId: 'n1', token: 'tok-1', epoch: 3 },
  metadata,
  ...overrides,
});

/** What the client hands back for a JSON event it read, fields as documented in its typings. */
const recorded = (overrides: Record<string, unknown> = {}): ClientRecordedEvent =>
  ({
    streamId: 'node-n1',
    id: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
    isJson: true,
    revision: 2n,
    type: 'NodeAcquired',
    created: new Date('2025-03-04T05:06:07.089Z'),
    data: { nodeId: 'n1' },
    metadata,
    position: { commit: 4711n, prepare: 4711n },
    ...overrides,
  }) as unknown as ClientRecordedEvent;

/** The JSON text the client sends and parses back: what a stored event's data and metadata go through. */
const overTheWire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('event mapping: NewEvent -> client JSON event', () => {
  it('keeps id, type, data and metadata, as JSON content', () => {
    const data = toEventData(newEvent());
    assert.equal(data.id, '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b');
    assert.equal(data.type, 'NodeAcquired');
    assert.equal(data.contentType, 'application/json');
    assert.deepEqual(data.data, { nodeId: 'n1', token: 'tok-1', epoch: 3 });
    assert.deepEqual(data.metadata, metadata);
  });

  it('refuses ids EventStoreDB cannot key an event by, or would return changed', () => {
    for (const id of [
      '',
      'acquire-42',
      '1B4E28BA-2FA1-4D3B-A3F5-EF19B5A7633B', // uppercase: the server returns it lowercase
      '1b4e28ba2fa14d3ba3f5ef19b5a7633b', // no dashes
      '{1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b}',
      '00000000-0000-0000-0000-000000000000',
      42 as unknown as string,
    ]) {
      assert.throws(() => toEventData(newEvent({ id })), InvalidEventError, JSON.stringify(id));
    }
    assert.throws(() => toEventData(newEvent({ id: 'nope' })), /event id must be a lowercase, non-nil UUID .* got "nope"/);
  });

  it('accepts any canonical UUID', () => {
    fc.assert(fc.property(fc.uuid(), (id) => assert.equal(toEventData(newEvent({ id: id.toLowerCase() })).id, id.toLowerCase())));
  });

  it('refuses empty and system ($-prefixed) event types', () => {
    assert.throws(() => toEventData(newEvent({ type: '' })), InvalidEventError);
    assert.throws(() => toEventData(newEvent({ type: '$metadata' })), /reserved for EventStoreDB system events/);
  });

  it('refuses data or metadata that is not JSON', () => {
    assert.throws(() => toEventData(newEvent({ data: { size: 10n } })), /data is not JSON-serialisable/);
    assert.throws(() => toEventData(newEvent({ data: undefined })), /data is not a JSON value/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => toEventData(newEvent({ data: cyclic })), InvalidEventError);
    assert.throws(() => toEventData(newEvent({ metadata: null as unknown as EventMetadata })), /metadata must be an object/);
  });
});

describe('event mapping: client recorded event -> RecordedEvent', () => {
  it('fills the envelope: stream, 0-based revision, position, recordedAt from created', () => {
    const event = toRecordedEvent(recorded());
    assert.deepEqual(event, {
      id: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
      type: 'NodeAcquired',
      data: { nodeId: 'n1' },
      metadata,
      stream: 'node-n1',
      revision: 2,
      position: 4711,
      recordedAt: '2025-03-04T05:06:07.089Z',
    });
  });

  it('gives back what was appended, through the JSON the client sends and parses', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.jsonValue(), fc.nat(), fc.integer({ min: 1, max: 2 ** 40 }), (id, data, revision, offset) => {
        const lowerId = id.toLowerCase();
        const sent = toEventData(newEvent({ id: lowerId, data }));
        const read = toRecordedEvent(
          recorded({
            id: sent.id,
            type: sent.type,
            data: overTheWire(sent.data),
            metadata: overTheWire(sent.metadata),
            revision: BigInt(revision),
            position: { commit: BigInt(offset), prepare: BigInt(offset) },
          }),
        );
        assert.equal(read.id, lowerId);
        assert.equal(read.type, 'NodeAcquired');
        assert.deepEqual(read.data, overTheWire(data));
        assert.deepEqual(read.metadata, metadata);
        assert.equal(read.revision, revision);
        assert.equal(read.position, offset);
      }),
    );
  });

  it('refuses events the ledger did not write: binary, or without object metadata', () => {
    assert.throws(() => toRecordedEvent(recorded({ isJson: false, data: new Uint8Array([1]) })), UnreadableEventError);
    assert.throws(() => toRecordedEvent(recorded({ metadata: undefined })), /no JSON object metadata/);
    assert.throws(() => toRecordedEvent(recorded({ metadata: new Uint8Array([1, 2]) })), UnreadableEventError);
  });

  it('refuses an event without a usable position instead of inventing one', () => {
    assert.throws(() => toRecordedEvent(recorded({ position: undefined })), /without a log position/);
    assert.throws(() => toRecordedEvent(recorded({ position: { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n } })), /stream reads need EventStoreDB 22.6/);
  });
});
