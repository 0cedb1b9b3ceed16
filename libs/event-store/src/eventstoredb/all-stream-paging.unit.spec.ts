import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { END, START } from '@eventstore/db-client';
import type { AllStreamResolvedEvent, Position, ReadPosition } from '@eventstore/db-client';
import type { AllPageReader } from './all-stream-paging';
import { findHeadPosition, readAllAfter } from './all-stream-paging';
import { comparePositions } from './position.codec';

/**
 * An in-memory model of $all, used to check the paging logic only (the real server is the
 * contract run's job). Reads follow what the server code does: a forward read includes its
 * start position (AllReader: TFPos >= pos), a backward read excludes it (TFPos < pos). The
 * `forwardIncludesStart` switch also checks the logic against a server that would exclude it.
 */
interface Entry {
  system: boolean;
  legacyTransaction: boolean;
  size: number;
}

const entries = fc.array(fc.record({ system: fc.boolean(), legacyTransaction: fc.boolean(), size: fc.integer({ min: 80, max: 5_000 }) }), { maxLength: 80 });

function buildLog(spec: Entry[]): AllStreamResolvedEvent[] {
  let offset = 128n;
  const revisions = new Map<string, bigint>();
  return spec.map((entry, i) => {
    const at = offset;
    offset += BigInt(entry.size);
    // EventStoreDB's own events may even come from old explicit transactions (commit after prepare);
    // the paging must order them without ever turning them into a number.
    const position: Position = entry.system && entry.legacyTransaction ? { commit: at + 40n, prepare: at } : { commit: at, prepare: at };
    const streamId = entry.system ? '$stats-127.0.0.1:2113' : `node-n${i % 3}`;
    const revision = revisions.get(streamId) ?? 0n;
    revisions.set(streamId, revision + 1n);
    return {
      event: {
        streamId,
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
        isJson: true,
        revision,
        type: entry.system ? '$statsCollected' : 'NodeAcquired',
        created: new Date(1_700_000_000_000 + i),
        data: { i },
        metadata: { correlationId: `c${i}`, causationId: null, actor: 'test', requestId: null, schemaVersion: 1 },
        position,
      },
      commitPosition: position.commit,
    } as AllStreamResolvedEvent;
  });
}

function modelReaders(log: AllStreamResolvedEvent[], forwardIncludesStart = true) {
  const reads = { count: 0 };
  const pos = (entry: AllStreamResolvedEvent) => entry.event!.position;
  const forwards: AllPageReader = async (from: ReadPosition, maxCount: number) => {
    reads.count += 1;
    const after =
      from === START
        ? log
        : from === END
          ? []
          : log.filter((entry) => {
              const order = comparePositions(pos(entry), from);
              return forwardIncludesStart ? order >= 0 : order > 0;
            });
    return after.slice(0, maxCount);
  };
  const backwards: AllPageReader = async (from: ReadPosition, maxCount: number) => {
    reads.count += 1;
    const before = from === END ? log : from === START ? [] : log.filter((entry) => comparePositions(pos(entry), from) < 0);
    return [...before].reverse().slice(0, maxCount);
  };
  return { forwards, backwards, reads };
}

const ledgerPositions = (log: AllStreamResolvedEvent[]) =>
  log.filter((entry) => !entry.event!.type.startsWith('$')).map((entry) => Number(entry.event!.position.commit));

describe('reading $all in pages, without EventStoreDB system events', () => {
  it('readAll gives exactly the ledger events after the position, up to maxCount, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        entries,
        fc.nat(),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 2, max: 9 }),
        fc.boolean(),
        async (spec, pick, maxCount, pageSize, forwardIncludesStart) => {
          const log = buildLog(spec);
          const positions = ledgerPositions(log);
          const after = pick % (positions.length + 1) === 0 ? 0 : positions[(pick % (positions.length + 1)) - 1];
          const { forwards } = modelReaders(log, forwardIncludesStart);
          const read = await readAllAfter(forwards, after, maxCount, pageSize);
          assert.deepEqual(
            read.map((event) => event.position),
            positions.filter((position) => position > after).slice(0, maxCount),
          );
          assert.ok(read.every((event) => !event.type.startsWith('$') && !event.stream.startsWith('$')));
        },
      ),
    );
  });

  it('resuming from the last position read, page after page, sees every ledger event exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(entries, fc.integer({ min: 1, max: 7 }), fc.integer({ min: 2, max: 9 }), async (spec, maxCount, pageSize) => {
        const log = buildLog(spec);
        const { forwards } = modelReaders(log);
        const seen: number[] = [];
        let from = 0;
        for (;;) {
          const batch = await readAllAfter(forwards, from, maxCount, pageSize);
          if (batch.length === 0) break;
          seen.push(...batch.map((event) => event.position));
          from = batch[batch.length - 1].position;
        }
        assert.deepEqual(seen, ledgerPositions(log));
      }),
    );
  });

  it('headPosition is the newest ledger event, or 0 when there is none', async () => {
    await fc.assert(
      fc.asyncProperty(entries, fc.integer({ min: 2, max: 9 }), async (spec, pageSize) => {
        const log = buildLog(spec);
        const positions = ledgerPositions(log);
        const { backwards } = modelReaders(log);
        assert.equal(await findHeadPosition(backwards, pageSize), positions.length === 0 ? 0 : positions[positions.length - 1]);
      }),
    );
  });

  it('an empty $all reads as empty, with head 0, in one round trip each', async () => {
    const { forwards, backwards, reads } = modelReaders([]);
    assert.deepEqual(await readAllAfter(forwards, 0, 10, 5), []);
    assert.equal(await findHeadPosition(backwards, 5), 0);
    assert.equal(reads.count, 2);
  });

  it('stops at maxCount without reading further pages', async () => {
    const log = buildLog(Array.from({ length: 50 }, () => ({ system: false, legacyTransaction: false, size: 100 })));
    const { forwards, reads } = modelReaders(log);
    const read = await readAllAfter(forwards, 0, 3, 4);
    assert.equal(read.length, 3);
    assert.equal(reads.count, 1);
  });

  it('refuses a page size that could not make progress', async () => {
    const { forwards, backwards } = modelReaders([]);
    await assert.rejects(readAllAfter(forwards, 0, 1, 1), RangeError);
    await assert.rejects(findHeadPosition(backwards, 0), RangeError);
  });
});
