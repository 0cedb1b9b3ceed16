/**
 * A ledger catching up says so once, not once per probe. After `ledger-cli rebuild`, every
 * follower of the log (the lease cascade included) stands at the log's head, so a start is
 * ready at once; a start that must catch up answers its readiness probes 503 meanwhile and
 * says "not ready" once and "ready" once, at info, with no error line and no stack trace;
 * a read whose wait runs out is a 503 with Retry-After, said once at warn.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore, LEASE_CASCADE_CHECKPOINT } from '@ledger/projections';
import { LedgerProcess, runCli } from '@ledger/testing';

const EVENTS = 30_000;
/** Pino's numeric levels: 40 warn, 50 error, 60 fatal. */
const ERROR = 50;

type LogLine = { level: number; msg: string; err?: unknown; stack?: unknown; condition?: string };

const logLines = (ledger: LedgerProcess): LogLine[] =>
  ledger.logs
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

/** The log both tests start from, generated once (the generator exits having closed it): each test gets a copy. */
let original: string | undefined;
const generated = async (): Promise<string> => {
  if (original === undefined) {
    const dataDir = LedgerProcess.tempDataDir();
    const result = await runCli(['generate', '--events', String(EVENTS), '--seed', '11', '--data-dir', dataDir]);
    assert.equal(result.status, 0, result.stderr);
    original = dataDir;
  }
  const copy = LedgerProcess.tempDataDir();
  cpSync(original, copy, { recursive: true });
  return copy;
};

/** Probes readiness as an orchestrator would (without its patience) until it passes; the statuses it saw. */
const probeUntilReady = async (ledger: LedgerProcess): Promise<number[]> => {
  const seen: number[] = [];
  for (let i = 0; i < 3_000; i++) {
    const { status } = await ledger.get('/healthz/ready');
    seen.push(status);
    if (status === 200) return seen;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`not ready after ${seen.length} probes`);
};

describe('a ledger catching up', () => {
  const ledgers: LedgerProcess[] = [];
  after(async () => {
    for (const ledger of ledgers) {
      await ledger.stop();
      ledger.removeData();
    }
    if (original !== undefined) rmSync(original, { recursive: true, force: true });
  });
  // Readiness demands every follower at the head, so "ready at once" means nothing left to step through.
  const env = { LEDGER_READY_MAX_LAG_EVENTS: '0', LEDGER_TEST_HEALTH_CHECK_INTERVAL_MS: '3600000' };

  it('after ledger-cli rebuild, starts ready: the lease cascade stands at the head with the read models', async () => {
    const dataDir = await generated();
    const rebuilt = await runCli(['rebuild', '--data-dir', dataDir]);
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    const head = Number(/to position (\d+)/.exec(rebuilt.stdout)?.[1]);
    assert.ok(head >= EVENTS, rebuilt.stdout);

    const checkpoints = CheckpointStore.open(join(dataDir, 'read-models.sqlite'));
    try {
      assert.equal(checkpoints.load(LEASE_CASCADE_CHECKPOINT)?.position, head, 'the rebuild brought the lease cascade to the head');
    } finally {
      checkpoints.close();
    }

    const ledger = await LedgerProcess.start({ dataDir, env });
    ledgers.push(ledger);
    const ready = await ledger.get<{ details: Record<string, { position: number }> }>('/healthz/ready');
    assert.equal(ready.status, 200, `the first probe after the start: ${JSON.stringify(ready.body)}`);
    assert.equal(ready.body.details['lease-cascade'].position, head);
    assert.deepEqual(
      logLines(ledger).filter((line) => /lease cascade released/.test(line.msg)),
      [],
      'nothing to release again',
    );
  });

  it('a start that must catch up says "not ready" once and "ready" once, with no error line; a read wait that runs out is a 503 with Retry-After, said once', async () => {
    const dataDir = await generated();
    const ledger = await LedgerProcess.start({ dataDir, env: { ...env, LEDGER_READ_WAIT_MS: '1' } });
    ledgers.push(ledger);
    const head: number = await ledger.storeHead();
    // Asked while the audit index still folds the log on its thread: a wait of a millisecond runs out.
    const early = await Promise.all(Array.from({ length: 5 }, () => ledger.get(`/v1/audit/events?limit=1&minPosition=${head}`)));
    const statuses = await probeUntilReady(ledger);
    assert.ok(statuses.length > 1, 'the ledger was not ready at first: there was a catch-up to log');

    const lines = logLines(ledger);
    assert.deepEqual(
      lines.filter((line) => line.level >= ERROR),
      [],
      'no error line while catching up',
    );
    assert.deepEqual(
      lines.filter((line) => line.condition === 'not_ready').map((line) => [line.level, line.msg.startsWith('not ready'), 'err' in line || 'stack' in line]),
      [
        [30, true, false],
        [30, false, false],
      ],
      'said once when it started, once when it ended, at info, without a stack',
    );
    const waitedOut = early.filter((answer) => answer.status === 503);
    for (const answer of waitedOut) {
      assert.equal(answer.body.code, 'not_caught_up');
      assert.ok(Number(answer.headers.get('retry-after')) >= 1, 'a 503 says when to ask again');
    }
    const notCaughtUp = lines.filter((line) => line.condition === 'not_caught_up' && line.level === 40);
    assert.equal(notCaughtUp.length, waitedOut.length > 0 ? 1 : 0, 'a read wait that ran out is said once, at warn');
  });
});
