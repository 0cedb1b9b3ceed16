import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SqliteEventStore, SqliteReadOnlyEventStore, storedEnvelopeJson, UpcasterRegistry } from '@ledger/event-store';
import type { RecordedEvent } from '@ledger/event-store';
import { envelopeJson } from './audit-index-projector';

/** A store in a temp file of its own, removed after `use`. */
const withStore = async (use: (store: SqliteEventStore, file: string) => Promise<void>): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-envelope-'));
  const file = join(dir, 'events.sqlite');
  const store = await SqliteEventStore.open({ file, synchronous: 'NORMAL' });
  try {
    await use(store, file);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
};

describe('an envelope spliced from the stored text is the envelope printed again', () => {
  it('for any JSON data and metadata, so a rebuilt audit index equals the live one', () =>
    withStore(async (store, file) => {
      const data = fc.sample(fc.jsonValue(), { numRuns: 300, seed: 42 });
      let id = 0;
      for (const value of data) {
        await store.appendToStream(
          `s-${id % 7}`,
          [
            {
              id: `e-${++id}`,
              type: 'Anything',
              data: value,
              metadata: { correlationId: 'c\u2028"\\', causationId: null, actor: 'ünïcødé 🙂', requestId: null, schemaVersion: 1 },
            },
          ],
          'any',
        );
      }
      const reader = SqliteReadOnlyEventStore.open({ file });
      const { events, json } = reader.readAfterWithJson(0, 1_000);
      await reader.close();
      assert.equal(events.length, data.length);
      events.forEach((event, i) => assert.equal(json[i], envelopeJson(event), `event ${event.position}`));
      // The live path (the server's subscription pages) keeps the same spliced text for the audit index.
      const live = await store.readAll({ fromPosition: 0, maxCount: 1_000 });
      assert.equal(live.length, data.length);
      live.forEach((event) => assert.equal(storedEnvelopeJson(event), envelopeJson(event), `live event ${event.position}`));
      // So does the live audit index's thread, which follows the file through a read-only handle.
      const follower = SqliteReadOnlyEventStore.open({ file, keepEnvelopeJson: true });
      const followed: RecordedEvent[] = [];
      const subscription = follower.subscribeToAll();
      for await (const event of subscription) {
        followed.push(event, ...(subscription.takeReady?.() ?? []));
        if (followed.length >= data.length) break;
      }
      await follower.close();
      assert.equal(followed.length, data.length);
      followed.forEach((event) => assert.equal(storedEnvelopeJson(event), envelopeJson(event), `followed event ${event.position}`));
    }));
});

describe('a read-only handle that keeps the stored envelope JSON', () => {
  it('keeps none for an event it upcast (its shape is not the stored one), and none without the option', () =>
    withStore(async (store, file) => {
      const metadata = { correlationId: 'c', causationId: null, actor: 'a', requestId: null, schemaVersion: 1 };
      await store.appendToStream('s', [{ id: 'old', type: 'Renamed', data: { name: 'x' }, metadata }], 'no_stream');
      await store.appendToStream('s', [{ id: 'kept', type: 'Unchanged', data: { name: 'y' }, metadata }], 0);
      const upcasters = new UpcasterRegistry([{ type: 'Renamed', fromVersion: 1, upcast: (data) => ({ title: (data as { name: string }).name }) }]);
      const keeping = SqliteReadOnlyEventStore.open({ file, upcasters, keepEnvelopeJson: true });
      const [upcast, unchanged] = await keeping.readAll();
      await keeping.close();
      assert.deepEqual(upcast.data, { title: 'x' });
      assert.equal(storedEnvelopeJson(upcast), undefined);
      assert.equal(storedEnvelopeJson(unchanged), envelopeJson(unchanged));
      const plain = SqliteReadOnlyEventStore.open({ file });
      const events = await plain.readAll();
      await plain.close();
      events.forEach((event) => assert.equal(storedEnvelopeJson(event), undefined));
    }));
});
