import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EventMetadata, NewEvent } from '../envelope';
import { InvalidConnectionStringError } from './connection-string';
import { InvalidEventError } from './event.mapping';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { InvalidStreamNameError } from './stream-name';

// No server here. Everything below must be decided before the adapter touches the network;
// the address points at a closed port so that any accidental I/O fails loudly, not slowly.
const NOWHERE = 'esdb://127.0.0.1:1?tls=false';

const metadata: EventMetadata = { correlationId: 'c', causationId: null, actor: 'test', requestId: null, schemaVersion: 1 };
const event = (id: string): NewEvent => ({ id, type: 'NodeEnlisted', data: { nodeId: 'n1' }, metadata });
const ID_1 = '6f1c1b4e-8d7a-4c1e-9d3e-2b7f0a9c1d01';
const ID_2 = '6f1c1b4e-8d7a-4c1e-9d3e-2b7f0a9c1d02';

describe('EventStoreDbEventStore without a server', () => {
  describe('connect', () => {
    it('creates a store from a valid connection string without connecting, and closes it', async () => {
      const store = await EventStoreDbEventStore.connect('esdb://admin:changeit@localhost:2113?tls=false');
      await store.close();
      await store.close();
    });

    it('refuses an invalid connection string with a clear error', async () => {
      await assert.rejects(EventStoreDbEventStore.connect('postgres://localhost/ledger'), InvalidConnectionStringError);
      await assert.rejects(EventStoreDbEventStore.connect(''), /set LEDGER_ESDB_URL/);
    });

    it('reports what the client rejects as an invalid connection string, password redacted', async () => {
      await assert.rejects(EventStoreDbEventStore.connect('esdb://admin:s3cret@localhost:http'), (error: Error) => {
        assert.ok(error instanceof InvalidConnectionStringError);
        assert.match(error.message, /rejected by the client/);
        assert.doesNotMatch(error.message, /s3cret/);
        return true;
      });
      await assert.rejects(EventStoreDbEventStore.connect('esdb://localhost:2113?tlsCAFile=/nonexistent/ca.crt'), /certificate file/);
    });
  });

  describe('input checks before any I/O', () => {
    let store: EventStoreDbEventStore;
    before(async () => {
      store = await EventStoreDbEventStore.connect(NOWHERE);
    });
    after(async () => {
      await store.close();
    });

    it('refuses event ids that are not lowercase UUIDs, naming the id', async () => {
      await assert.rejects(store.appendToStream('node-n1', [event('acquire-42')], 'no_stream'), (error: Error) => {
        assert.ok(error instanceof InvalidEventError);
        assert.match(error.message, /"acquire-42"/);
        return true;
      });
    });

    it('refuses an empty append and duplicate ids within one append', async () => {
      await assert.rejects(store.appendToStream('node-n1', [], 'any'), /at least one event/);
      await assert.rejects(store.appendToStream('node-n1', [event(ID_1), event(ID_1)], 'any'), /ids must be distinct/);
    });

    it('refuses bad expected revisions', async () => {
      await assert.rejects(store.appendToStream('node-n1', [event(ID_1), event(ID_2)], -1), RangeError);
      await assert.rejects(store.appendToStream('node-n1', [event(ID_1)], 1.5), RangeError);
    });

    it('refuses system stream names', async () => {
      await assert.rejects(store.appendToStream('$all', [event(ID_1)], 'any'), InvalidStreamNameError);
      await assert.rejects(store.readStream('$$node-n1'), InvalidStreamNameError);
      await assert.rejects(store.readStream(''), InvalidStreamNameError);
    });

    it('refuses bad revisions, positions and counts', async () => {
      await assert.rejects(store.readStream('node-n1', { fromRevision: -1 }), /fromRevision/);
      await assert.rejects(store.readAll({ maxCount: 0 }), /maxCount must be a positive integer/);
      await assert.rejects(store.readAll({ fromPosition: -5 }), /position must be a non-negative integer/);
      assert.throws(() => store.subscribeToAll({ fromPosition: 1.25 }), RangeError);
    });
  });

  describe('after close', () => {
    it('refuses every operation', async () => {
      const store = await EventStoreDbEventStore.connect(NOWHERE);
      await store.close();
      await assert.rejects(store.appendToStream('node-n1', [event(ID_1)], 'no_stream'), /closed/);
      await assert.rejects(store.readStream('node-n1'), /closed/);
      await assert.rejects(store.readAll(), /closed/);
      await assert.rejects(store.headPosition(), /closed/);
      assert.throws(() => store.subscribeToAll(), /closed/);
    });
  });
});
