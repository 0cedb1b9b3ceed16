/**
 * Events can evolve: an event stored in an old shape is read in the current one through
 * every path that loads events (issue 13, point 4): the decider runner (decide), the
 * live projection and the one-pass rebuild (project), time travel, and the CLI's export
 * (the read-only log and the envelope it prints), all with one UpcasterRegistry.
 *
 * No production event has a second version yet (EVENT_UPCASTERS is empty), so this
 * spec gives NodeEnlisted one: version 1 called the CPU count `cpus`, version 2 (the
 * shape the domain folds today) calls it `cpuCount`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { nodeDecider, Streams, type NodeEnlisted } from '@ledger/domain';
import {
  DeciderRunner,
  EventFromTheFutureError,
  eventsAt,
  SqliteEventStore,
  SqliteReadOnlyEventStore,
  UpcasterRegistry,
  UpcastingEventStore,
  type NewEvent,
} from '@ledger/event-store';
import { tempStoreFile, type TempStoreFile } from '../../../event-store/src/embedded/testing/temp-store-file';
import { CheckpointStore, openReadModelDatabase, ProjectionRunner } from '../runtime';
import { ledgerProjection } from '../ledger-view';
import { stateAt } from '../time-travel';
import { rebuildReadModels } from '../rebuild';
import { envelopeJson } from '../audit';

const schemas = new UpcasterRegistry([
  {
    type: 'NodeEnlisted',
    fromVersion: 1,
    upcast: (data) => {
      const { cpus, ...rest } = data as { cpus: number } & Record<string, unknown>;
      return { ...rest, cpuCount: cpus };
    },
  },
]);

const metadata = (schemaVersion: number) => ({ correlationId: 'c', causationId: null, actor: 'test', requestId: null, schemaVersion });

/** As an older ledger wrote it: schema version 1, `cpus`. */
const enlistedV1: NewEvent = {
  id: 'enlisted-v1',
  type: 'NodeEnlisted',
  data: { nodeId: 'n-old', hostname: 'old.maas', arch: 'amd64', cpus: 8, memoryMb: 16384, tags: ['gpu'], zone: 'a' },
  metadata: metadata(1),
};

/** As today's ledger writes it. */
const enlistedV2: NewEvent = {
  id: 'enlisted-v2',
  type: 'NodeEnlisted',
  data: { nodeId: 'n-new', hostname: 'new.maas', arch: 'arm64', cpuCount: 4, memoryMb: 8192, tags: [], zone: 'b' },
  metadata: metadata(2),
};

const CURRENT_SHAPE: NodeEnlisted['data'] = { nodeId: 'n-old', hostname: 'old.maas', arch: 'amd64', cpuCount: 8, memoryMb: 16384, tags: ['gpu'], zone: 'a' };

describe('an event stored in an old shape is read in the current one', () => {
  let temp: TempStoreFile;
  let head = 0;

  before(async () => {
    temp = await tempStoreFile('upcasting');
    const store = await SqliteEventStore.open({ file: temp.file });
    await store.appendToStream(Streams.node('n-old'), [enlistedV1], 'no_stream');
    head = (await store.appendToStream(Streams.node('n-new'), [enlistedV2], 'no_stream')).position;
    await store.close();
  });

  after(async () => temp.remove());

  it('decide: the decider runner folds it as the current shape and decides on it', async () => {
    const store = await SqliteEventStore.open({ file: temp.file });
    try {
      const runner = new DeciderRunner(new UpcastingEventStore(store, schemas), nodeDecider);
      const { state } = await runner.load(Streams.node('n-old'));
      assert.equal(state.profile?.cpuCount, 8);
      assert.equal(Reflect.get(state.profile ?? {}, 'cpus'), undefined, 'the old field is gone from the upcast profile');
      // Enlisting the same machine again is a no-op only if the stored profile, upcast, equals today's.
      const profile = { hostname: 'old.maas', arch: 'amd64', cpuCount: 8, memoryMb: 16384, tags: ['gpu'], zone: 'a' };
      const again = await runner.handle(Streams.node('n-old'), { type: 'EnlistNode', nodeId: 'n-old', profile }, { toNewEvents: () => [] });
      assert.equal(again.outcome, 'accepted', JSON.stringify(again));
      assert.equal(again.outcome === 'accepted' ? again.appended : -1, 0);
    } finally {
      await store.close();
    }
  });

  it('project: the live projection and the one-pass rebuild both fold the current shape', async () => {
    const store = await SqliteEventStore.open({ file: temp.file });
    const db = openReadModelDatabase(join(temp.file, '..', 'read-models.sqlite'));
    try {
      const live = new ProjectionRunner(new UpcastingEventStore(store, schemas), CheckpointStore.on(db), ledgerProjection);
      live.start();
      assert.ok(await live.catchUp());
      assert.equal(live.state.nodes['n-old'].cpuCount, 8);
      assert.equal(live.state.nodes['n-new'].cpuCount, 4);
      await live.stop();

      const log = SqliteReadOnlyEventStore.open({ file: temp.file, upcasters: schemas });
      try {
        const rebuilt = await rebuildReadModels({ store: log, db, snapshotEvery: 0 });
        assert.equal(rebuilt.view.nodes['n-old'].cpuCount, 8);
        assert.deepEqual(rebuilt.view, live.state, 'both folds agree');
      } finally {
        await log.close();
      }
    } finally {
      db.close();
      await store.close();
    }
  });

  it('time travel: the state at a position folds the current shape', async () => {
    const store = await SqliteEventStore.open({ file: temp.file });
    try {
      const { state } = await stateAt(new UpcastingEventStore(store, schemas), ledgerProjection, head, null);
      assert.equal(state.nodes['n-old'].cpuCount, 8);
    } finally {
      await store.close();
    }
  });

  it('export and audit queries: the log hands out the event in its current shape and version, also read by position', async () => {
    const log = SqliteReadOnlyEventStore.open({ file: temp.file, upcasters: schemas });
    try {
      const [old, current] = log.readAfter(0, 10).map((event) => JSON.parse(envelopeJson(event)) as { data: unknown; metadata: { schemaVersion: number } });
      assert.deepEqual(old.data, CURRENT_SHAPE);
      assert.equal(old.metadata.schemaVersion, 2);
      assert.deepEqual(current.data, enlistedV2.data);
      const [first, second] = log.readAfter(0, 10);
      // What an audit page reads: the events its rows list, by position, from either handle on the log.
      assert.deepEqual(await eventsAt(log, [second.position, first.position]), [second, first]);
      const store = await SqliteEventStore.open({ file: temp.file });
      try {
        assert.deepEqual(await eventsAt(new UpcastingEventStore(store, schemas), [first.position, second.position]), [first, second]);
      } finally {
        await store.close();
      }
    } finally {
      await log.close();
    }
  });

  it('an event from a newer schema than the code knows is refused, not folded wrongly', async () => {
    const store = await SqliteEventStore.open({ file: temp.file });
    try {
      await store.appendToStream(
        Streams.node('n-future'),
        [{ ...enlistedV2, id: 'enlisted-v3', data: { ...(enlistedV2.data as object), nodeId: 'n-future' }, metadata: metadata(3) }],
        'no_stream',
      );
      await assert.rejects(new UpcastingEventStore(store, schemas).readStream(Streams.node('n-future')), EventFromTheFutureError);
    } finally {
      await store.close();
    }
  });

  it("the registry refuses a gap in an event type's versions, and stamps new events with the current version", () => {
    assert.throws(() => new UpcasterRegistry([{ type: 'X', fromVersion: 2, upcast: (data) => data }]), /expected one from version 1/);
    assert.equal(schemas.currentVersion('NodeEnlisted'), 2);
    assert.equal(schemas.currentVersion('NodeReserved'), 1);
  });
});
