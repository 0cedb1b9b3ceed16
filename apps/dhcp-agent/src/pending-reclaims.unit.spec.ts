import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PendingReclaims } from './pending-reclaims';

const SOURCE = 'kea:kea-leases4.csv';
const entry = { ip: '10.96.14.34', leaseId: '3@10.96.14.34', mac: '2c:59:e5:3b:01:40' };

describe("the agent's reclaims in flight", () => {
  const inFolder = (test: (dir: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'pending-reclaims-'));
    try {
      test(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('are found again by a restarted agent of the same source, until removed', () =>
    inFolder((dir) => {
      new PendingReclaims(dir, SOURCE).add(entry);
      const restarted = new PendingReclaims(dir, SOURCE);
      assert.deepEqual(restarted.all(), [entry]);
      assert.deepEqual(restarted.get(entry.ip), entry);
      assert.deepEqual(new PendingReclaims(dir, 'kea:other.csv').all(), [], "another source's entries are not this agent's");
      assert.equal(restarted.remove({ ...entry, leaseId: '2@10.96.14.34' }), false, 'another lease of the address is not this entry');
      assert.equal(restarted.remove(entry), true);
      assert.equal(restarted.remove(entry), false, 'whoever removes it first saw the reclaim through');
      assert.deepEqual(new PendingReclaims(dir, SOURCE).all(), []);
    }));

  it('refuse a file this agent did not write, naming it', () =>
    inFolder((dir) => {
      writeFileSync(join(dir, 'reclaims.json'), JSON.stringify({ version: 7 }));
      assert.throws(() => new PendingReclaims(dir, SOURCE), /reclaims\.json is not a list of reclaims this agent wrote/);
    }));
});
