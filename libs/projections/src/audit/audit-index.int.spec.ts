import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { mintToken } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { storeHolding } from '@ledger/event-store/testing';
import { AuditIndexProjector } from './audit-index-projector';
import { AuditIndexReader } from './audit-index-reader';
import { AUDIT_INDEX, auditTableNames } from './audit-index-tables';
import { AUDIT_TYPE_CODES } from './audit-type-codes';
import { ReadModelTables } from '../runtime/read-model-tables';

const alice = mintToken('node-7', 1, 'aliceentropy0000');
const bob = mintToken('node-7', 2, 'bobentropy000000');
const time = (minute: number) => new Date(Date.UTC(2025, 0, 1, 12, minute)).toISOString();

let position = 0;
const at = (minute: number, stream: string, type: string, data: Record<string, unknown>, actor = 'someone'): RecordedEvent => ({
  id: `e${++position}`,
  type,
  stream,
  revision: 0,
  position,
  recordedAt: time(minute),
  data,
  metadata: { correlationId: `c${position}`, causationId: null, actor, requestId: null, schemaVersion: 1 },
});

/** The seed 1 story, plus a lease on an IP while Alice's allocation held it. */
const story = (): RecordedEvent[] => {
  position = 0;
  return [
    at(
      0,
      'node-node-7',
      'NodeEnlisted',
      { nodeId: 'node-7', hostname: 'n7', arch: 'amd64', cpuCount: 8, memoryMb: 1, tags: [], zone: 'z' },
      'operator:charlie',
    ),
    at(
      1,
      'node-node-7',
      'NodeAcquired',
      { nodeId: 'node-7', token: alice, epoch: 1, consumer: { controller: 'fair-clouds', model: 'mobile-app', machine: '87' } },
      'juju:alice',
    ),
    at(2, 'ip-10.0.0.5', 'LeaseGranted', { ip: '10.0.0.5', owner: { token: alice } }, 'dhcp'),
    at(3, 'node-node-7', 'DeploymentFailed', { nodeId: 'node-7', token: alice, epoch: 1, reason: 'curtin', source: 'maas' }, 'maas'),
    at(4, 'ip-10.0.0.5', 'PoolAudited', { ip: '10.0.0.5' }, 'dhcp'),
    at(5, 'node-node-7', 'AllocationRevoked', { nodeId: 'node-7', token: alice, epoch: 1, providerStatus: 'ready', source: 'maas' }, 'operator:charlie'),
    at(6, 'ip-10.0.0.5', 'LeaseGranted', { ip: '10.0.0.5', owner: { token: mintToken('node-8', 1, 'otherentropy0000') } }, 'dhcp'),
    at(7, 'ip-10.0.0.5', 'LeaseRenewed', { ip: '10.0.0.5' }, 'dhcp'),
    at(
      8,
      'node-node-7',
      'NodeAcquired',
      { nodeId: 'node-7', token: bob, epoch: 2, consumer: { controller: 'fair-clouds', model: 'show-me-the-money' } },
      'juju:bob',
    ),
    at(
      9,
      'refusals-node-7',
      'CommandRefused',
      {
        command: 'ReleaseAllocation',
        nodeId: 'node-7',
        token: alice,
        consumer: null,
        ip: null,
        code: 'stale_token',
        reason: 'dead token',
        details: { action: 'forget this machine; do not touch the node' },
      },
      'juju:alice',
    ),
  ];
};

/** The events indexed a page at a time, and a reader over the index and a real log holding them. */
const indexed = async (events: RecordedEvent[], pageSize = 3) => {
  const db = new Database(':memory:');
  const projector = AuditIndexProjector.live(db);
  for (let i = 0; i < events.length; i += pageSize) projector.applyPage(events.slice(i, i + pageSize));
  const log = await storeHolding(events);
  return { db, projector, reader: new AuditIndexReader(db, log.store), done: log.done };
};
const positions = (json: string[]) => json.map((text) => (JSON.parse(text) as RecordedEvent).position);

describe('the audit index', () => {
  it('keeps one row per event, its checkpoint moving with its rows, and skips what it has seen', async () => {
    const events = story();
    const { projector, reader, done } = await indexed(events);
    try {
      assert.equal(projector.position, 10);
      assert.equal(reader.position(), 10);
      projector.applyPage(events.slice(4, 8)); // a replay of a page: nothing twice
      const page = await reader.events({ limit: 100 });
      assert.deepEqual(positions(page.events), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // Each event as the log holds it, read back by position.
      assert.deepEqual(
        page.events
          .map((json) => JSON.parse(json) as RecordedEvent)
          .map(({ id, type, stream, position, recordedAt, data, metadata }) => ({ id, type, stream, position, recordedAt, data, metadata })),
        events.map(({ id, type, stream, position, recordedAt, data, metadata }) => ({ id, type, stream, position, recordedAt, data, metadata })),
      );
    } finally {
      await done();
    }
  });

  it('filters by node, token, ip, controller and model, type, and time; pages by position', async () => {
    const { reader, done } = await indexed(story());
    try {
      assert.deepEqual(positions((await reader.events({ token: alice, limit: 100 })).events), [2, 3, 4, 6, 10]);
      assert.deepEqual(positions((await reader.events({ ip: '10.0.0.5', limit: 100 })).events), [3, 5, 7, 8]);
      // Every later event naming Alice's token counts as her model's, refusals included.
      assert.deepEqual(positions((await reader.events({ controller: 'fair-clouds', model: 'mobile-app', limit: 100 })).events), [2, 3, 4, 6, 10]);
      assert.deepEqual(positions((await reader.events({ types: ['NodeAcquired', 'CommandRefused'], limit: 100 })).events), [2, 9, 10]);
      assert.deepEqual(positions((await reader.events({ from: new Date(time(3)), to: new Date(time(5)), limit: 100 })).events), [4, 5, 6]);
      assert.deepEqual(positions((await reader.events({ nodeId: 'node-7', from: new Date(time(3)), limit: 100 })).events), [4, 6, 9, 10]);
      const first = await reader.events({ nodeId: 'node-7', limit: 2 });
      assert.deepEqual([positions(first.events), first.nextAfter], [[1, 2], 2]);
      const second = await reader.events({ nodeId: 'node-7', limit: 2, after: first.nextAfter! });
      assert.deepEqual([positions(second.events), second.nextAfter], [[3, 4], 4]);
      const last = await reader.events({ nodeId: 'node-7', limit: 10, after: 6 });
      assert.deepEqual([positions(last.events), last.nextAfter], [[9, 10], null]);
    } finally {
      await done();
    }
  });

  it('files a known type as its code and any other as its name, and finds both by name', async () => {
    const { db, reader, done } = await indexed(story());
    try {
      const table = auditTableNames(new ReadModelTables(db).current(AUDIT_INDEX)!.generation).events;
      const stored = (where: number) => db.prepare(`SELECT type FROM "${table}" WHERE position = ?`).pluck().get(where);
      assert.equal(stored(2), AUDIT_TYPE_CODES.indexOf('NodeAcquired'));
      assert.equal(stored(5), 'PoolAudited', 'a type with no code keeps its name');
      assert.deepEqual(positions((await reader.events({ types: ['PoolAudited'], limit: 100 })).events), [5]);
      // A row filed under its name before its type had a code (one appended later) is still found.
      db.prepare(`UPDATE "${table}" SET type = 'NodeAcquired' WHERE position = 9`).run();
      assert.deepEqual(positions((await reader.events({ types: ['NodeAcquired'], limit: 100 })).events), [2, 9]);
      assert.deepEqual(positions((await reader.events({ types: ['LeaseRenewed', 'PoolAudited'], ip: '10.0.0.5', limit: 100 })).events), [5, 8]);
    } finally {
      await done();
    }
  });

  it("tells a node's story: its events, its refusals, and its IP's events while its allocation held it", async () => {
    const { reader, done } = await indexed(story());
    try {
      const timeline = (await reader.timeline('node-7', { limit: 100 }))!;
      assert.deepEqual(
        timeline.entries.map((entry) => entry.position),
        [1, 2, 3, 4, 5, 6, 9, 10],
      );
      const refusal = timeline.entries.find((entry) => entry.type === 'CommandRefused')!;
      assert.equal(refusal.actor, 'juju:alice');
      assert.equal(refusal.token, alice);
      assert.match(refusal.summary, /REFUSED ReleaseAllocation .*stale_token.*forget this machine/);
      assert.match(timeline.entries.find((entry) => entry.type === 'AllocationRevoked')!.summary, /released out of band/);
      assert.equal(
        timeline.entries.find((entry) => entry.position === 5)!.summary,
        'PoolAudited: ip=10.0.0.5',
        'an event type with no summary line is described by its fields',
      );
      assert.deepEqual(
        (await reader.timeline('node-7', { limit: 100, until: 5 }))!.entries.map((entry) => entry.position),
        [1, 2, 3, 4, 5],
      );
      const paged = (await reader.timeline('node-7', { limit: 3 }))!;
      assert.deepEqual([paged.entries.map((entry) => entry.position), paged.nextAfter], [[1, 2, 3], 3]);
      assert.equal(await reader.timeline('node-404', { limit: 10 }), null);
    } finally {
      await done();
    }
  });
});
