import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, linkSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IscJournal } from './isc-journal';
import type { JournalStep } from './kea-journal';

const lease = (n: number, state = 'active') =>
  [`lease 10.9.0.${n} {`, `  binding state ${state};`, `  hardware ethernet 02:00:00:00:00:0${n};`, `  client-hostname "a;b{c}";`, '}', ''].join('\n');
const HEADER = 'authoring-byte-order little-endian;\n';
const ips = (step: JournalStep) => (step.kind === 'read' ? step.records.map((r) => `${r.ip} ${r.state}`) : step.kind);
const quiet = { problem: () => undefined, notice: () => undefined };

describe('following dhcpd.leases', () => {
  it('a block still being written is read once complete, and a restart at the checkpoint reads nothing twice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'isc-journal-'));
    const file = join(dir, 'dhcpd.leases');
    try {
      const second = lease(2);
      writeFileSync(file, HEADER + lease(1) + second.slice(0, 30));
      const journal = new IscJournal(file, null, quiet);
      const first = journal.read();
      assert.deepEqual(ips(first), ['10.9.0.1 active']);
      assert.equal(first.kind === 'read' && first.position.offset, Buffer.byteLength(HEADER + lease(1)));
      appendFileSync(file, second.slice(30));
      const next = journal.read();
      assert.deepEqual(ips(next), ['10.9.0.2 active']);
      journal.close();

      appendFileSync(file, lease(1, 'free'));
      const restarted = new IscJournal(file, next.kind === 'read' ? next.position : null, quiet);
      assert.deepEqual(ips(restarted.read()), ['10.9.0.1 free']);
      assert.equal(restarted.read().kind, 'idle');
      restarted.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a rewrite (a new file renamed into place) is followed from its start, after the old file is read to its end', () => {
    const dir = mkdtempSync(join(tmpdir(), 'isc-journal-'));
    const file = join(dir, 'dhcpd.leases');
    try {
      writeFileSync(file, HEADER + lease(1));
      const journal = new IscJournal(file, null, quiet);
      assert.deepEqual(ips(journal.read()), ['10.9.0.1 active']);
      appendFileSync(file, lease(2));
      // As dhcpd does it: the current state to a new file, the old one linked to a backup, the new one renamed in.
      writeFileSync(join(dir, 'dhcpd.leases.new'), HEADER + lease(1) + lease(2) + lease(3));
      linkSync(file, `${file}~`);
      renameSync(join(dir, 'dhcpd.leases.new'), file);
      assert.deepEqual(ips(journal.read()), ['10.9.0.2 active'], 'the old file to its end first');
      const rewritten = journal.read();
      assert.deepEqual(ips(rewritten), ['10.9.0.1 active', '10.9.0.2 active', '10.9.0.3 active'], 'then the new one from its start');
      assert.equal(rewritten.kind === 'read' && rewritten.position.offset, Buffer.byteLength(HEADER + lease(1) + lease(2) + lease(3)));
      assert.equal(journal.read().kind, 'idle');
      journal.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
