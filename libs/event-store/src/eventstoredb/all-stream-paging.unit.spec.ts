import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { END, START } from '@eventstore/db-client';
import type { AllStreamResolvedEvent, Position, ReadPosition } from '@eventstore/db-client';
import type { AllPageReader } from './all-stream-paging';
import { findEventAtOrAfter, findHeadPosition, findPositionAtTime, readAllAfter } from './all-stream-paging';
import type { ForeignEvent } from './foreign-events';
import { comparePositions } from './position.codec';

/**
 * An in-memory model of $all, used to check the paging logic only (the real server is the
 * contract run's job). Reads follow what the server code does: a forward read includes its
 * start position (AllReader: TFPos >= pos), a backward read excludes it (TFPos < pos). The
 * `forwardIncludesStart` switch also checks the logic against a server that would exclude it.
 * Reading from a number that is not a record's own position fails, as on the server: its
 * positions are log offsets, and a read "into the middle of a record" errors
 * (kurrent-io/KurrentDB#694, the server's answer "ReadAllResult.Error" made clearer by #3991).
 * Entries may also be foreign (written by another application) and carry a leader clock that
 * steps back and forth (`skew`), as across failovers.
 */
interface Entry {
  system: boolean;
  legacyTransaction: boolean;
  size: number;
  foreign?: boolean;
  skew?: number;
}

const entries = fc.array(
  fc.record({
    system: fc.boolean(),
    legacyTransaction: fc.boolean(),
    size: fc.integer({ min: 80, max: 5_000 }),
    foreign: fc.boolean(),
    skew: fc.integer({ min: -3, max: 3 }),
  }),
  { maxLength: 80 },
);

function buildLog(spec: Entry[]): AllStreamResolvedEvent[] {
  let offset = 128n;
  const revisions = new Map<string, bigint>();
  return spec.map((entry, i) => {
    const at = offset;
    offset += BigInt(entry.size);
    // EventStoreDB's own events may even come from old explicit transactions (commit after prepare);
    // the paging must order them without ever turning them into a number.
    const position: Position =
      entry.system && entry.legacyTransaction ? { commit: at + 40n, prepare: at } : { commit: at, prepare: at };
    const streamId = entry.system ? '$stats-127.0.0.1:2113' : `node-n${i % 3}`;
    const revision = revisions.get(streamId) ?? 0n;
    revisions.set(streamId, revision + 1n);
    return {
      event: {
        streamId,
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
        isJson: true,
        revision,
        type: entry.system ? '$statsCollected' : entry.foreign ? 'OrderShipped' : 'NodeAcquired',
        created: new Date(1_700_000_000_000 + (i + (entry.skew ?? 0)) * 1_000),
        data: { i },
        metadata:
          entry.foreign && !entry.system
            ? { $correlationId: `c${i}` }
            : { correlationId: `c${i}`, causationId: null, actor: 'test', requestId: null, schemaVersion: 1 },
        position,
      },
      commitPosition: position.commit,
    } as AllStreamResolvedEvent;
  });
}

function modelReaders(log: AllStreamResolvedEvent[], forwardIncludesStart = true) {
  const reads = { count: 0 };
  const pos = (entry: AllStreamResolvedEvent) => entry.event!.position;
  const requireRecordPosition = (from: ReadPosition) => {
    if (typeof from === 'string' || log.some((entry) => comparePositions(pos(entry), from) === 0)) return;
    throw new Error(`server: no log record at {commit: ${from.commit}, prepare: ${from.prepare}}`);
  };
  const forwards: AllPageReader = async (from: ReadPosition, maxCount: number) => {
    reads.count += 1;
    requireRecordPosition(from);
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
    requireRecordPosition(from);
    const before = from === END ? log : from === START ? [] : log.filter((entry) => comparePositions(pos(entry), from) < 0);
    return [...before].reverse().slice(0, maxCount);
  };
  return { forwards, backwards, reads };
}

const isLedgerEntry = (entry: AllStreamResolvedEvent) => !entry.event!.type.startsWith('$') && entry.event!.type !== 'OrderShipped';
const ledgerPositions = (log: AllStreamResolvedEvent[]) => log.filter(isLedgerEntry).map((entry) => Number(entry.event!.position.commit));
const ignoreForeign = () => undefined;

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
          const read = await readAllAfter(forwards, after, maxCount, pageSize, ignoreForeign);
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
          const batch = await readAllAfter(forwards, from, maxCount, pageSize, ignoreForeign);
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
        assert.equal(await findHeadPosition(backwards, pageSize, ignoreForeign), positions.length === 0 ? 0 : positions[positions.length - 1]);
      }),
    );
  });

  it('an empty $all reads as empty, with head 0, in one round trip each', async () => {
    const { forwards, backwards, reads } = modelReaders([]);
    assert.deepEqual(await readAllAfter(forwards, 0, 10, 5, ignoreForeign), []);
    assert.equal(await findHeadPosition(backwards, 5, ignoreForeign), 0);
    assert.equal(reads.count, 2);
  });

  it('stops at maxCount without reading further pages', async () => {
    const log = buildLog(Array.from({ length: 50 }, () => ({ system: false, legacyTransaction: false, size: 100 })));
    const { forwards, reads } = modelReaders(log);
    const read = await readAllAfter(forwards, 0, 3, 4, ignoreForeign);
    assert.equal(read.length, 3);
    assert.equal(reads.count, 1);
  });

  it('refuses a page size that could not make progress', async () => {
    const { forwards, backwards } = modelReaders([]);
    await assert.rejects(readAllAfter(forwards, 0, 1, 1, ignoreForeign), RangeError);
    await assert.rejects(findHeadPosition(backwards, 0, ignoreForeign), RangeError);
  });

  it('the event at or after any number is found by moving only between positions the server returned', async () => {
    await fc.assert(
      fc.asyncProperty(entries, fc.integer({ min: 0, max: 500_000 }), fc.integer({ min: 2, max: 9 }), async (spec, target, pageSize) => {
        const log = buildLog(spec);
        const { backwards } = modelReaders(log);
        const found = await findEventAtOrAfter(backwards, pageSize, ignoreForeign, target);
        assert.equal(found?.position ?? null, ledgerPositions(log).find((position) => position >= target) ?? null);
      }),
    );
  });

  it('the position at a time is the last ledger event recorded by then, even when leader clocks step back', async () => {
    await fc.assert(
      fc.asyncProperty(entries, fc.integer({ min: -5, max: 90 }), fc.integer({ min: 2, max: 9 }), async (spec, second, pageSize) => {
        const log = buildLog(spec);
        const time = new Date(1_700_000_000_000 + second * 1_000);
        const { backwards } = modelReaders(log);
        const expected = log.filter((entry) => isLedgerEntry(entry) && entry.event!.created.getTime() <= time.getTime()).pop();
        assert.equal(await findPositionAtTime(backwards, pageSize, ignoreForeign, time), expected ? Number(expected.event!.position.commit) : 0);
      }),
    );
  });

  it('skips events other applications wrote, reporting each, instead of failing the read', async () => {
    const log = buildLog([
      { system: false, legacyTransaction: false, size: 100 },
      { system: false, legacyTransaction: false, size: 100, foreign: true },
      { system: false, legacyTransaction: false, size: 100 },
    ]);
    const { forwards, backwards } = modelReaders(log);
    const reported: ForeignEvent[] = [];
    const read = await readAllAfter(forwards, 0, 10, 5, (event) => reported.push(event));
    assert.deepEqual(read.map((event) => event.position), ledgerPositions(log));
    assert.deepEqual(reported.map((event) => event.type), ['OrderShipped']);
    assert.match(reported[0].reason, /not written by the ledger/);
    assert.equal(await findHeadPosition(backwards, 5, ignoreForeign), ledgerPositions(log)[1]);
  });
});
