/**
 * The operator's tools on a generated log of 20,000 events, beside the running ledger:
 * verify passes against the live read models; a CLI rebuild runs while the ledger keeps
 * writing, and the ledger follows the rebuilt tables; a tampered read model fails
 * verify with a readable diff; export writes exactly the range asked for.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { AUDIT_INDEX, auditTableNames, CheckpointStore, ledgerProjection } from '@ledger/projections';
import { LedgerProcess, runCli } from '@ledger/testing';
import { enlist } from './support/fixtures';
import type { Schema } from './support/answers';

const CLI = resolve(__dirname, '../apps/ledger-cli/src/main.js');
const EVENTS = 20_000;

/** The CLI as a background process, for running beside requests to the ledger. */
const cliInBackground = (args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (status) => done({ status: status ?? -1, stdout, stderr }));
  });

const caughtUp = async (ledger: LedgerProcess, head: number) => {
  for (let i = 0; i < 400; i++) {
    const { projections } = (await ledger.get<Schema<'ProjectionListResponseDto'>>('/v1/admin/projections')).body;
    if (projections.every((p: { position: number }) => p.position >= head)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the read models did not catch up');
};

describe(`ledger-cli on a ${EVENTS}-event log`, () => {
  const dataDir = LedgerProcess.tempDataDir();
  let ledger: LedgerProcess | undefined;
  after(async () => {
    await ledger?.stop();
    ledger?.removeData();
  });

  it('verifies, rebuilds beside the running ledger, catches a tampered read model, and exports a range', async (t) => {
    const generated = await runCli(['generate', '--events', String(EVENTS), '--seed', '7', '--data-dir', dataDir]);
    assert.equal(generated.status, 0, generated.stderr);
    assert.match(generated.stdout, new RegExp(`generated ${EVENTS} events`));

    // The generated history has deployments long overdue: with the deploy-timeout monitor's
    // first look an hour away, this test's ledger writes only what the test sends, so every
    // count below is exact (a fault appended between reading the head and stopping was a flake).
    ledger = await LedgerProcess.start({ dataDir, env: { LEDGER_SNAPSHOT_EVERY: '2000', LEDGER_TEST_HEALTH_CHECK_INTERVAL_MS: '3600000' } });
    await caughtUp(ledger, EVENTS);

    const verified = await runCli(['verify', '--data-dir', dataDir, '--snapshots', 'all']);
    assert.equal(verified.status, 0, verified.stderr);
    assert.match(verified.stdout, new RegExp(`^verified ${EVENTS} events at position ${EVENTS} `));
    t.diagnostic(verified.stdout.trim());

    // A rebuild of every read model while the ledger keeps writing: the ledger moves to the new tables.
    const rebuilding = cliInBackground(['rebuild', '--data-dir', dataDir, '--snapshot-every', '2000']);
    for (let i = 0; i < 20; i++) assert.equal((await enlist(ledger, `late-${i}`)).status, 201);
    const rebuilt = await rebuilding;
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /^rebuilt \d+ events to position \d+ in /);
    await enlist(ledger, 'after-rebuild');
    const head: number = await ledger.storeHead();
    const late = await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?type=NodeEnlisted&after=${EVENTS}&minPosition=${head}`);
    assert.deepEqual(
      late.body.events.map((e) => e.data.nodeId),
      [...Array.from({ length: 20 }, (_, i) => `late-${i}`), 'after-rebuild'],
    );
    assert.equal((await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?nodeId=node-00001&limit=1000`)).status, 200);

    await ledger.stop(); // its last checkpoint is written
    const again = await runCli(['verify', '--data-dir', dataDir]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`^verified ${head} events at position ${head} `));

    // Tamper with the live read models: verify fails, and says where.
    const db = new Database(join(dataDir, 'read-models.sqlite'));
    // The view's checkpoint holds each node as a row of its own, in the row set it names.
    const rowSet = CheckpointStore.on(db).liveRowSet(ledgerProjection.name);
    const where = "WHERE name = ? AND collection = 'nodes' AND key = 'node-00001'";
    const node = JSON.parse((db.prepare(`SELECT body FROM checkpoint_entities ${where}`).get(rowSet) as { body: string }).body);
    const epoch = node.epoch;
    node.epoch = 999;
    db.prepare(`UPDATE checkpoint_entities SET body = ? ${where}`).run(JSON.stringify(node), rowSet);
    const audit = (db.prepare('SELECT generation FROM read_model_tables WHERE name = ? AND current = 1').get(AUDIT_INDEX) as { generation: number }).generation;
    db.prepare(`UPDATE "${auditTableNames(audit).events}" SET node_id = 'node-99999' WHERE position = 42`).run();
    db.close();
    const caught = await runCli(['verify', '--data-dir', dataDir]);
    assert.equal(caught.status, 1);
    assert.match(caught.stderr, /MISMATCH/);
    assert.match(caught.stderr, new RegExp(`view at ${head}: nodes\\.node-00001\\.epoch: live 999, rebuilt ${epoch}`));
    assert.match(caught.stderr, /audit index: row at position 42 differs in node_id: live "node-99999"/);
    t.diagnostic(caught.stderr.trim());

    const exported = await runCli(['export', '--data-dir', dataDir, '--from', '100', '--to', '199']);
    assert.equal(exported.status, 0, exported.stderr);
    const lines = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual([lines.length, lines[0].position, lines[99].position], [100, 100, 199]);
    assert.deepEqual(Object.keys(lines[0]), ['id', 'type', 'stream', 'revision', 'position', 'recordedAt', 'data', 'metadata']);
    const byTime = await runCli(['export', '--data-dir', dataDir, '--from', lines[10].recordedAt, '--to', lines[20].recordedAt]);
    const timed = byTime.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.ok(timed[0].position <= 110 && timed[timed.length - 1].position >= 120, 'a time range covers the events recorded in it');
  });
});
