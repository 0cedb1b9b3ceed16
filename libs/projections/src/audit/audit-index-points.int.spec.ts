/**
 * A time or position lookup through the audit index costs a bounded number of the store's
 * reads, however long the log: EventStoreDB's own way walks $all back from its end a page
 * per 500 events (a month back on a 10M-event log: about 20,000 pages). Here the store is
 * the embedded one held to EventStoreDB's rule (ReturnedPositionsOnlyStore: a read from a
 * position it never returned fails) and every read of it is counted; the answers must be
 * the store's own, on a log whose last events the index has not folded yet.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type Database from 'better-sqlite3';
import { SqliteEventStore, type ReadAllOptions, type RecordedEvent } from '@ledger/event-store';
import { DelegatingStore, ReturnedPositionsOnlyStore } from '@ledger/event-store/testing';
import { openReadModelDatabase } from '../runtime/read-model-database';
import { AuditIndexProjector } from './audit-index-projector';
import { AuditIndexPoints } from './audit-index-points';
import { AuditIndexedLog } from './audit-indexed-log';

/** Counts the store's reads of the log: pages of $all, and its own (walking) lookups. */
class CountingStore extends DelegatingStore {
  pages = 0;
  ownLookups = 0;

  override readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    // EventStoreDB reads $all in pages of at most 500 entries.
    this.pages += Math.ceil((options?.maxCount ?? 500) / 500);
    return super.readAll(options);
  }

  override eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    this.ownLookups++;
    return super.eventAtOrAfter(position);
  }

  override positionAtTime(time: Date): Promise<number> {
    this.ownLookups++;
    return super.positionAtTime(time);
  }
}

const START = Date.UTC(2026, 0, 1);
/** Events the index leaves unfolded at the end of the log. */
const TAIL = 120;

for (const events of [1_000, 6_000]) {
  describe(`lookups through the audit index on a ${events}-event log`, () => {
    let dir: string;
    let inner: SqliteEventStore;
    let db: Database.Database;
    let counting: CountingStore;
    let log: AuditIndexedLog;
    let written: RecordedEvent[];

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ledger-index-points-'));
      let second = 0;
      // Two events a second: times repeat, as they do under load.
      inner = await SqliteEventStore.open({
        file: join(dir, 'events.sqlite'),
        synchronous: 'NORMAL',
        clock: () => new Date(START + Math.floor(++second / 2) * 1000),
      });
      for (let i = 0; i < events; i += 10) {
        const batch = Array.from({ length: 10 }, (_, j) => {
          const id = randomUUID();
          return {
            id,
            type: 'NodeEnlisted',
            data: { nodeId: `n${(i + j) % 50}` },
            metadata: { correlationId: id, causationId: null, actor: 't', requestId: null, schemaVersion: 1 },
          };
        });
        await inner.appendToStream(`node-n${i % 50}`, batch, 'any');
      }
      const returned = new ReturnedPositionsOnlyStore(inner);
      db = openReadModelDatabase(join(dir, 'read-models.sqlite'));
      const index = AuditIndexProjector.live(db);
      written = [];
      for (
        let page = await returned.readAll({ maxCount: 1_000 });
        page.length > 0;
        page = await returned.readAll({ fromPosition: written.at(-1)!.position, maxCount: 1_000 })
      ) {
        written.push(...page);
      }
      index.applyPage(written.slice(0, written.length - TAIL));
      counting = new CountingStore(returned);
      log = new AuditIndexedLog(counting, new AuditIndexPoints(db, counting));
    });

    after(async () => {
      db.close();
      await inner.close();
      await rm(dir, { recursive: true, force: true });
    });

    /** Runs `lookup` and says how many pages of $all it read; the store's own walks are never used. */
    const pagesOf = async <T>(lookup: () => Promise<T>): Promise<{ answer: T; pages: number }> => {
      const [pages, own] = [counting.pages, counting.ownLookups];
      const answer = await lookup();
      assert.equal(counting.ownLookups, own, "the store's own walk is not used");
      return { answer, pages: counting.pages - pages };
    };

    it('a position by time: the store’s answer, no page read inside the index, one past it', async () => {
      const indexedEnd = written[written.length - TAIL - 1];
      const times = [
        new Date(START - 86_400_000),
        new Date(written[0].recordedAt),
        new Date(written[Math.floor(events / 3)].recordedAt),
        new Date(Date.parse(written[Math.floor(events / 2)].recordedAt) + 500),
        new Date(Date.parse(indexedEnd.recordedAt) - 1),
        new Date(written[written.length - TAIL / 2].recordedAt),
        new Date(START + 365 * 86_400_000),
      ];
      for (const time of times) {
        const expected = await inner.positionAtTime(time);
        const { answer, pages } = await pagesOf(() => log.positionAtTime(time));
        assert.equal(answer, expected, `at ${time.toISOString()}`);
        assert.ok(pages <= 1, `at ${time.toISOString()}: ${pages} pages read`);
        if (expected < indexedEnd.position - 2) assert.equal(pages, 0, `at ${time.toISOString()}: answered from the index alone`);
      }
    });

    it('the event at or after any position: the store’s answer, in one page', async () => {
      const head = written.at(-1)!.position;
      for (const position of [0, 1, 2, Math.floor(head / 3), Math.floor(head / 2) + 1, head - TAIL - 1, head - TAIL + 1, head, head + 7]) {
        const expected = await inner.eventAtOrAfter(position);
        const { answer, pages } = await pagesOf(() => log.eventAtOrAfter(position));
        assert.equal(answer?.id ?? null, expected?.id ?? null, `at ${position}`);
        assert.ok(pages <= 1, `at ${position}: ${pages} pages read`);
      }
    });
  });
}
