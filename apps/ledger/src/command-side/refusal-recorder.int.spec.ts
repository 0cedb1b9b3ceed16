import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { refuse } from '@ledger/domain';
import { SqliteEventStore, type EventStore } from '@ledger/event-store';
import { ForgetfulIdempotencyStore } from '@ledger/event-store/testing';
import { cryptoRandomness } from '../infrastructure/randomness';
import { RefusalRecorder } from './refusal-recorder';

/**
 * Issue 12, point 4: a retried request (same requestId) records its refusal once on both
 * stores. On EventStoreDB an append with `any` is deduplicated only through a cache the
 * server loses on restart (ForgetfulIdempotencyStore models it lost), so the recorder must
 * not rely on it.
 */
const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

const openStore = async (): Promise<SqliteEventStore> => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-refusals-'));
  dirs.push(dir);
  return SqliteEventStore.open({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL' });
};

const refused = { command: 'AcquireNode', nodeId: 'n1', token: null };
const { refusal } = refuse('node_unavailable', 'n1 is allocated');
const countRefusals = async (store: EventStore) => (await store.readStream('refusals-n1')).filter((event) => event.type === 'CommandRefused').length;

describe('recording refusals of retried requests', () => {
  for (const [name, wrap] of [
    ['embedded', (store: EventStore) => store],
    ['EventStoreDB model (recent-writes cache lost)', (store: EventStore) => new ForgetfulIdempotencyStore(store)],
  ] as const) {
    it(`a retry records nothing more, and another request is recorded (${name})`, async () => {
      const inner = await openStore();
      const recorder = new RefusalRecorder(wrap(inner), cryptoRandomness);
      const context = { correlationId: 'c1', actor: 'tester', requestId: 'req-1' };
      await recorder.record(refused, refusal, context);
      await recorder.record(refused, refusal, { ...context, correlationId: 'c2' });
      await Promise.all([recorder.record(refused, refusal, context), recorder.record(refused, refusal, context)]);
      assert.equal(await countRefusals(inner), 1);
      await recorder.record(refused, refusal, { ...context, requestId: 'req-2' });
      await recorder.record(refused, refusal, { ...context, requestId: null });
      assert.equal(await countRefusals(inner), 3);
      await inner.close();
    });
  }
});
