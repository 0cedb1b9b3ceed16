import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LeaseObservation, LeaseRecord } from '@ledger/lease-files';
import { LedgerHttpError, LedgerUnreachable, type LeaseObservationsResponse, type LeaseVerdict } from './lease-observations-client';
import { ImportInterrupted, postInBatches, rejectedRecords } from './post-in-batches';

const record = (i: number): LeaseRecord => ({
  ip: `10.1.${i >> 8}.${i & 255}`,
  mac: `52:54:00:00:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
  state: 'active',
  origin: { line: 10 * i + 1 },
});
const records = (count: number) => Array.from({ length: count }, (_, i) => record(i));

/** A ledger that calls every third address orphaned and remembers each batch it was sent. */
const fakeLedger = (behaviour: (batch: LeaseObservation[], call: number) => void = () => {}) => {
  const batches: LeaseObservation[][] = [];
  let position = 100;
  return {
    batches,
    async post(leases: LeaseObservation[]): Promise<LeaseObservationsResponse> {
      behaviour(leases, batches.length);
      batches.push(leases);
      const verdict = (ip: string): LeaseVerdict => (Number(ip.split('.')[3]) % 3 === 0 ? 'orphaned' : 'released');
      const results = leases.map((l) => ({ ip: l.ip, mac: l.mac, verdict: verdict(l.ip), reason: verdict(l.ip) === 'orphaned' ? 'no owner' : 'not active' }));
      position += leases.length;
      return { source: 'test', received: leases.length, results, summary: { valid: 0, orphaned: 0, released: 0, unknown: 0 }, position };
    },
  };
};

describe('posting lease records in batches', () => {
  it('posts every record exactly once, in order, in batches of at most the batch size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 120 }), async (count, size) => {
        const ledger = fakeLedger();
        const progress: number[] = [];
        const outcome = await postInBatches(records(count), size, ledger, (handled) => progress.push(handled));
        assert.deepEqual(
          ledger.batches.flat().map((l) => l.ip),
          records(count).map((r) => r.ip),
        );
        assert.ok(ledger.batches.every((b) => b.length >= 1 && b.length <= size));
        assert.equal(outcome.batches, Math.ceil(count / size));
        assert.equal(outcome.posted, count);
        assert.equal(outcome.verdicts.orphaned + outcome.verdicts.released, count);
        assert.equal(outcome.orphaned.length, outcome.verdicts.orphaned);
        assert.deepEqual(
          progress,
          ledger.batches.map((_, i) => Math.min(count, (i + 1) * size)),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('sends exactly the endpoint fields: the line a record came from stays local', async () => {
    const ledger = fakeLedger();
    const withEverything: LeaseRecord = { ...record(1), starts: '2024-05-01T08:00:00.000Z', ends: null, hostname: 'web-1', origin: { file: 'a.csv', line: 7 } };
    await postInBatches([withEverything], 10, ledger);
    assert.deepEqual(ledger.batches[0], [
      { ip: '10.1.0.1', mac: '52:54:00:00:00:01', state: 'active', starts: '2024-05-01T08:00:00.000Z', ends: null, hostname: 'web-1' },
    ]);
  });

  it('leaves out a hostname longer than a DNS name rather than have the ledger refuse the lease', async () => {
    const ledger = fakeLedger();
    await postInBatches(
      [
        { ...record(1), hostname: 'x'.repeat(254) },
        { ...record(2), hostname: 'y'.repeat(253) },
      ],
      10,
      ledger,
    );
    assert.deepEqual(
      ledger.batches[0].map((l) => l.hostname?.length),
      [undefined, 253],
    );
  });

  it('names each orphaned lease with the line it came from and keeps the highest position', async () => {
    const outcome = await postInBatches(records(7), 3, fakeLedger());
    assert.deepEqual(
      outcome.orphaned.map((o) => [o.ip, o.reason, o.origin?.line]),
      [
        ['10.1.0.0', 'no owner', 1],
        ['10.1.0.3', 'no owner', 31],
        ['10.1.0.6', 'no owner', 61],
      ],
    );
    assert.equal(outcome.position, 107);
  });

  it('splits a batch the ledger finds too large (413) and carries on', async () => {
    const ledger = fakeLedger((batch) => {
      if (batch.length > 4) throw new LedgerHttpError(413, { code: 'payload_too_large', message: 'too large' });
    });
    const outcome = await postInBatches(records(10), 10, ledger);
    assert.equal(outcome.posted, 10);
    assert.deepEqual(
      ledger.batches.map((b) => b.length),
      [3, 2, 3, 2],
    );
    assert.deepEqual(
      ledger.batches.flat().map((l) => l.ip),
      records(10).map((r) => r.ip),
    );
  });

  it('drops the records a 400 names, reports them with their lines, and posts the rest of the batch', async () => {
    const ledger = fakeLedger((batch) => {
      const bad = batch.findIndex((l) => l.ip === '10.1.0.2' || l.ip === '10.1.0.4');
      if (bad >= 0)
        throw new LedgerHttpError(400, {
          code: 'invalid_request',
          message: `leases.${bad}.hostname: too long`,
          details: [{ field: `leases.${bad}.hostname`, problems: ['hostname must be shorter than or equal to 253 characters'] }],
        });
    });
    const outcome = await postInBatches(records(6), 6, ledger);
    assert.equal(outcome.posted, 4);
    assert.deepEqual(outcome.rejected, [
      { line: 21, reason: '10.1.0.2 rejected by the ledger: hostname: hostname must be shorter than or equal to 253 characters' },
      { line: 41, reason: '10.1.0.4 rejected by the ledger: hostname: hostname must be shorter than or equal to 253 characters' },
    ]);
    assert.deepEqual(
      ledger.batches.at(-1)!.map((l) => l.ip),
      ['10.1.0.0', '10.1.0.1', '10.1.0.3', '10.1.0.5'],
    );
  });

  it('reads both spellings of a rejected record, leases[3].mac and leases.3.mac, and ignores indexes outside the batch', () => {
    assert.deepEqual(
      [...rejectedRecords({ message: 'leases[3].mac: must be a MAC address | leases[12].ip: bad' }, 5)],
      [[3, 'leases[3].mac: must be a MAC address']],
    );
    assert.deepEqual(
      [...rejectedRecords({ details: [{ field: 'leases.0.state', problems: ['state must be one of ...'] }] }, 5)],
      [[0, 'state: state must be one of ...']],
    );
    assert.deepEqual([...rejectedRecords({ message: 'source: must be a string' }, 5)], []);
  });

  it('stops on anything else, saying how far it got', async () => {
    for (const failure of [
      new LedgerHttpError(500, { message: 'internal error' }),
      new LedgerHttpError(400, { message: 'source: bad' }),
      new LedgerUnreachable('ECONNREFUSED'),
    ]) {
      const ledger = fakeLedger((_, call) => {
        if (call === 2) throw failure;
      });
      await assert.rejects(postInBatches(records(10), 3, ledger), (error: unknown) => {
        assert.ok(error instanceof ImportInterrupted);
        assert.equal(error.cause, failure);
        assert.equal(error.outcome.posted, 6);
        assert.equal(error.outcome.batches, 2);
        return true;
      });
    }
  });
});
