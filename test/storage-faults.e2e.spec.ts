/**
 * Issue 11: a full or read-only disk is an answer, not a crash, and it heals by itself.
 * The data directory is a real small tmpfs (mounted as root, as CI runs), filled by
 * enlisting nodes with long tags, or remounted read-only; then space (or rw) comes back.
 * Throughout: no 500, 503 with the condition's code and Retry-After, /healthz down then
 * up, queries answering; afterwards `ledger-cli verify` passes and every acknowledged
 * command is there after a kill -9.
 */
import assert from 'node:assert/strict';
import { closeSync, copyFileSync, existsSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LedgerProcess, type HttpResult, runCli } from '@ledger/testing';
import { enlist } from './support/fixtures';
import { SmallTmpfs } from './support/small-tmpfs';
import type { ApiError, Health, Schema } from './support/answers';

const unavailable = SmallTmpfs.unavailableReason();
if (unavailable) console.warn(`\n!!! ${unavailable} !!!\n`);

/** Fast probing so recovery is seen soon; the tests still wait on conditions, never on durations. */
const ENV = { LEDGER_TEST_STORAGE_PROBE_INTERVAL_MS: '100', LEDGER_CHECKPOINT_INTERVAL_MS: '200' };
const LONG_TAGS = Array.from({ length: 20 }, (_, i) => `rack-${i}-${'x'.repeat(56)}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const waitUntil = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> => {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(50);
  }
};

/** Every answer of a command is a success or a 503 naming the storage condition: never a 500. */
const assertAnswered = (result: HttpResult<unknown>, codes: string[], what: string): boolean => {
  if (result.status >= 200 && result.status < 300) return true;
  assert.equal(result.status, 503, `${what}: ${JSON.stringify(result.body)}`);
  const error = result.body as ApiError;
  assert.ok(codes.includes(error.code), `${what}: code ${error.code}, expected one of ${codes}`);
  assert.equal(result.headers.get('retry-after'), '5', `${what}: Retry-After`);
  assert.match(error.message, /nothing was written/);
  return false;
};

/** Kill -9, restart on the same data, wait for the read models, and check every acknowledged node and `ledger-cli verify`. */
const restartAndCheck = async (ledger: LedgerProcess, acknowledged: string[]): Promise<LedgerProcess> => {
  await ledger.kill();
  const restarted = await LedgerProcess.start({ dataDir: ledger.dataDir, env: ENV });
  try {
    await waitUntil('the read models caught up after the restart', async () => {
      const health = await restarted.get<Health>('/healthz');
      return health.status === 200 && health.body.readModels.lag === 0;
    });
    for (const nodeId of acknowledged) {
      const node = await restarted.get<Schema<'NodeResponseDto'>>(`/v1/nodes/${nodeId}`);
      assert.equal(node.status, 200, `acknowledged node ${nodeId} is there after kill -9`);
    }
    const audit = await restarted.get<Schema<'AuditEventsResponseDto'>>(
      `/v1/audit/events?type=NodeEnlisted&limit=1000&minPosition=${await restarted.storeHead()}`,
    );
    assert.equal(audit.status, 200);
    const audited = new Set(audit.body.events.map((event) => event.data.nodeId));
    assert.deepEqual(
      acknowledged.filter((nodeId) => !audited.has(nodeId)),
      [],
      'every acknowledged enlist is in the audit index',
    );
    // Once the view has checkpointed the head, verify compares every read model with a rebuild from zero.
    await waitUntil('verify passes on the running ledger', async () => (await runCli(['verify', '--data-dir', restarted.dataDir], {})).status === 0);
    await restarted.stop();
    const verified = await runCli(['verify', '--data-dir', restarted.dataDir]);
    assert.equal(verified.status, 0, `verify after a graceful stop: ${verified.stdout}${verified.stderr}`);
    return restarted;
  } catch (error) {
    await restarted.kill();
    throw error;
  }
};

describe('storage faults: a full or read-only disk', { skip: unavailable ?? false }, () => {
  it(
    'a full disk: 503 storage_full with Retry-After, health down, queries answer; space returns: heals without restart, loses nothing',
    { timeout: 300_000 },
    async () => {
      const tmpfs = SmallTmpfs.mount(6);
      let ledger: LedgerProcess | null = null;
      try {
        ledger = await LedgerProcess.start({ dataDir: tmpfs.dir, env: ENV });
        const acknowledged: string[] = [];
        let refused: HttpResult | null = null;
        for (let i = 0; refused === null; i += 8) {
          assert.ok(i < 20_000, 'the 6 MB disk filled up');
          const batch = Array.from({ length: 8 }, (_, k) => `full-${i + k}`);
          const results = await Promise.all(batch.map((nodeId) => enlist(ledger!, nodeId, { tags: LONG_TAGS })));
          results.forEach((result, k) => {
            if (assertAnswered(result, ['storage_full'], `enlist ${batch[k]}`)) acknowledged.push(batch[k]);
            else refused ??= result;
          });
        }
        assert.equal((refused as HttpResult | null)?.body.code, 'storage_full');

        // While full: more commands are refused cleanly, health says why, queries keep answering.
        for (let i = 0; i < 10; i++) {
          const result = await enlist(ledger, `while-full-${i}`, { tags: LONG_TAGS });
          if (assertAnswered(result, ['storage_full'], `enlist while full ${i}`)) acknowledged.push(`while-full-${i}`);
        }
        const health = await ledger.get<Health>('/healthz');
        assert.equal(health.status, 503);
        assert.equal(health.body.status, 'storage_fault');
        assert.equal(health.body.store.writable, false);
        assert.equal(health.body.store.fault?.code, 'storage_full');
        assert.equal((await ledger.get<Schema<'NodeResponseDto'>>(`/v1/nodes/${acknowledged[0]}`)).status, 200, 'queries answer while the disk is full');
        assert.equal((await ledger.get<Schema<'NodeListResponseDto'>>('/v1/nodes')).status, 200);
        const metrics = await ledger.get<string>('/metrics');
        assert.match(metrics.body, /ledger_storage_writable 0/);
        assert.match(metrics.body, /ledger_storage_refused_writes_total [1-9]/);

        // Space comes back: writes resume by themselves.
        tmpfs.remount('size=40m');
        await waitUntil('/healthz is ok again', async () => (await ledger!.get<Health>('/healthz')).status === 200);
        for (let i = 0; i < 20; i++) {
          const result = await enlist(ledger, `after-${i}`, { tags: LONG_TAGS });
          assert.equal(result.status, 201, `enlist after space returned: ${JSON.stringify(result.body)}`);
          acknowledged.push(`after-${i}`);
        }
        assert.match((await ledger.get<string>('/metrics')).body, /ledger_storage_writable 1/);
        // One line when it started, one when it ended: not a stack trace per request.
        assert.equal(ledger.logs.match(/storage fault: /g)?.length, 1, 'one log line when the condition started');
        assert.equal(ledger.logs.match(/storage fault ended/g)?.length, 1, 'one log line when it ended');
        assert.doesNotMatch(ledger.logs, /"statusCode":500|internal_error/);

        ledger = await restartAndCheck(ledger, acknowledged);
      } finally {
        await ledger?.kill();
        tmpfs.unmount();
      }
    },
  );

  // Linux refuses `mount -o remount,ro` while a process holds files open for writing ("mount
  // point is busy"), so a running ledger's disk cannot be made read-only from a test; the
  // kernel does it on its own only after a file-system error. What an operator meets is
  // the ledger started (or restarted) on a read-only disk: that is what this covers.
  it('a read-only disk: 503 storage_read_only, health down, queries answer; rw again and a restart: loses nothing', { timeout: 300_000 }, async () => {
    const tmpfs = SmallTmpfs.mount(32);
    let ledger: LedgerProcess | null = null;
    try {
      ledger = await LedgerProcess.start({ dataDir: tmpfs.dir, env: ENV });
      const acknowledged: string[] = [];
      for (let i = 0; i < 10; i++) {
        assert.equal((await enlist(ledger, `ro-before-${i}`)).status, 201);
        acknowledged.push(`ro-before-${i}`);
      }
      await ledger.kill();
      tmpfs.remount('ro');
      ledger = await LedgerProcess.start({ dataDir: tmpfs.dir, env: ENV });
      for (let i = 0; i < 5; i++) {
        const result = await enlist(ledger, `ro-while-${i}`);
        assert.equal(assertAnswered(result, ['storage_read_only'], `enlist on a read-only disk ${i}`), false, 'nothing is written to a read-only disk');
      }
      const health = await ledger.get<Health>('/healthz');
      assert.equal(health.status, 503);
      assert.equal(health.body.store.fault?.code, 'storage_read_only');
      assert.equal((await ledger.get<Schema<'NodeResponseDto'>>(`/v1/nodes/${acknowledged[0]}`)).status, 200, 'queries answer on a read-only disk');
      assert.equal(ledger.logs.match(/storage fault: /g)?.length, 1, 'one log line for the condition');
      assert.doesNotMatch(ledger.logs, /"statusCode":500|internal_error/);

      tmpfs.remount('rw');
      ledger = await restartAndCheck(ledger, acknowledged);
    } finally {
      await ledger?.kill();
      tmpfs.unmount();
    }
  });
});

describe('storage faults: the CLI tools on a full disk', { skip: unavailable ?? false }, () => {
  it(
    'rebuild and export say the disk is full and exit non-zero, leaving no half-written file; once there is room, verify and rebuild pass',
    { timeout: 300_000 },
    async () => {
      const tmpfs = SmallTmpfs.mount(8);
      let ledger: LedgerProcess | null = null;
      try {
        ledger = await LedgerProcess.start({ dataDir: tmpfs.dir, env: ENV });
        for (let i = 0; i < 120; i += 8) {
          const results = await Promise.all(Array.from({ length: 8 }, (_, k) => enlist(ledger!, `cli-${i + k}`, { tags: LONG_TAGS })));
          for (const result of results) assert.equal(result.status, 201);
        }
        await ledger.stop();
        const filler = fillDisk(tmpfs.dir);

        const rebuilt = await runCli(['rebuild', '--data-dir', tmpfs.dir]);
        assert.equal(rebuilt.status, 75, `rebuild on a full disk: ${rebuilt.stdout}${rebuilt.stderr}`);
        assert.match(rebuilt.stderr, /rebuild refused: the disk holding the ledger is full \(storage_full\)/);
        assert.doesNotMatch(rebuilt.stderr, /\n\s+at /, 'no stack trace');

        const out = join(tmpfs.dir, 'export.ndjson');
        const exported = await runCli(['export', '--data-dir', tmpfs.dir, '--out', out]);
        assert.notEqual(exported.status, 0, `export on a full disk: ${exported.stderr}`);
        assert.match(exported.stderr, /export refused: .*full/);
        assert.equal(existsSync(out) || existsSync(`${out}.partial`), false, 'no export file, whole or partial');

        // Verify only reads here (its scratch copy is elsewhere), but SQLite may need room for the WAL index: a clear refusal or a pass.
        const verified = await runCli(['verify', '--data-dir', tmpfs.dir]);
        if (verified.status !== 0) {
          assert.equal(verified.status, 75, `verify on the full disk: ${verified.stdout}${verified.stderr}`);
          assert.match(verified.stderr, /verify refused: .*\(storage_full\)/);
        }
        // Room comes back: a rebuild needs space for a whole second copy of the read models (and its WAL).
        unlinkSync(filler);
        tmpfs.remount('size=64m');
        // The live read models were never swapped for half-built ones: they verify as they are.
        const intact = await runCli(['verify', '--data-dir', tmpfs.dir]);
        assert.equal(intact.status, 0, `verify once there is room: ${intact.stdout}${intact.stderr}`);
        const rebuiltLater = await runCli(['rebuild', '--data-dir', tmpfs.dir]);
        assert.equal(rebuiltLater.status, 0, rebuiltLater.stderr);
        assert.equal((await runCli(['verify', '--data-dir', tmpfs.dir])).status, 0);
      } finally {
        await ledger?.kill();
        tmpfs.unmount();
      }
    },
  );
});

/** Writes a file until the disk is full; returns its path. */
const fillDisk = (dir: string): string => {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
  return file;
};

describe('storage faults: the store file removed or replaced under a running ledger', () => {
  it('refuses writes with 503 storage_replaced (never writes to the wrong file), says so, and keeps answering queries', { timeout: 120_000 }, async () => {
    const ledger = await LedgerProcess.start({ env: ENV });
    try {
      assert.equal((await enlist(ledger, 'before-replace')).status, 201);
      const file = join(ledger.dataDir, 'events.sqlite');
      // Another file takes its name (a restore from backup copied over it, say).
      copyFileSync(file, `${file}.copy`);
      renameSync(`${file}.copy`, file);
      const result = await enlist(ledger, 'after-replace');
      assert.equal(result.status, 503);
      assert.equal(result.body.code, 'storage_replaced');
      assert.match(result.body.message ?? '', /replaced/);
      const health = await ledger.get<Health>('/healthz');
      assert.equal(health.status, 503);
      assert.equal(health.body.store.fault?.code, 'storage_replaced');
      assert.equal((await ledger.get<Schema<'NodeResponseDto'>>('/v1/nodes/before-replace')).status, 200);
      // Said once, on the line of the request that met it.
      await ledger.waitForLog(new RegExp(`"correlationId":"${result.body.correlationId}".*storage fault: .*replaced`));
    } finally {
      await ledger.kill();
      ledger.removeData();
    }
  });
});
