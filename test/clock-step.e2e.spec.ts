/**
 * The wall clock stepped while the ledger runs (an NTP step, a VM restored from a
 * snapshot), as libfaketime does it: only the wall clock moves
 * (FAKETIME_DONT_FAKE_MONOTONIC=1), stepped through a timestamp file read on every call
 * (FAKETIME_NO_CACHE=1). Under steady load, back an hour and then forward two: no 429
 * the configured rate does not explain (before, every key was locked out for the hour),
 * recordedAt never falls, each step is logged once at warn with its size and counted
 * (ledger_wall_clock_steps_total), and a step forward expires the reservation and the
 * lease the new time says have ended and faults the deployment it says is overdue.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@ledger/event-store';
import { LedgerProcess, PATIENCE_MS, until } from '@ledger/testing';
import { consumer, newRequestId } from './support/fixtures';
import type { Acquired, Schema } from './support/answers';

/** libfaketime from Debian's package (`faketime` depends on `libfaketime`), wherever dpkg put it. */
const findLibfaketime = (): string | null => {
  const listed = spawnSync('dpkg', ['-L', 'libfaketime'], { encoding: 'utf8' });
  const fromDpkg = listed.status === 0 ? listed.stdout.split('\n').find((line) => /\/libfaketime\.so\.1$/.test(line)) : undefined;
  return (
    [fromDpkg, '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/faketime/libfaketime.so.1'].find((path) => path && existsSync(path)) ?? null
  );
};

const LIBFAKETIME = findLibfaketime();
const RATE = 100;
const HOUR_MS = 3_600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(
  'a wall clock stepped back and forward under load',
  { skip: LIBFAKETIME ? false : 'libfaketime is not installed (Debian package faketime; .ci/run installs it)' },
  () => {
    let dir: string;
    let offsetFile: string;
    let ledger: LedgerProcess;
    /** The wall clock's offset the ledger sees, in seconds: libfaketime reads the file on every call. */
    const stepTo = (seconds: number) => writeFileSync(offsetFile, `${seconds >= 0 ? '+' : ''}${seconds}\n`);

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ledger-clock-'));
      offsetFile = join(dir, 'faketime.rc');
      stepTo(0);
      ledger = await LedgerProcess.start({
        env: {
          LD_PRELOAD: LIBFAKETIME!,
          FAKETIME_TIMESTAMP_FILE: offsetFile,
          FAKETIME_NO_CACHE: '1',
          FAKETIME_DONT_FAKE_MONOTONIC: '1',
          // File times stay real: the keys file is re-read when its modification time changes.
          NO_FAKE_STAT: '1',
          LEDGER_RATE_LIMIT_PER_SECOND: String(RATE),
          LEDGER_TEST_HEALTH_CHECK_INTERVAL_MS: '200',
        },
      });
    });
    after(async () => {
      await ledger?.stop();
      ledger?.removeData();
      rmSync(dir, { recursive: true, force: true });
    });

    const leaseStatuses = async (): Promise<string[]> => {
      const answer = await ledger.get<Schema<'LeaseListResponseDto'>>('/v1/leases?ip=10.77.0.1');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.leases.map((lease: { status: string }) => lease.status);
    };

    const stepsCounted = async (direction: 'backward' | 'forward'): Promise<number> => {
      const metrics = await ledger.get('/metrics');
      assert.equal(metrics.status, 200, `GET /metrics: ${JSON.stringify(metrics.body)}`);
      const match = new RegExp(`^ledger_wall_clock_steps_total\\{direction="${direction}"\\} (\\d+)$`, 'm').exec(String(metrics.body));
      return match ? Number(match[1]) : NaN;
    };

    it('keeps every rate, never lets recordedAt fall, and says each step once', async () => {
      assert.equal(await stepsCounted('backward'), 0);
      const statuses = new Map<number, number>();
      const refusals: string[] = [];
      let running = true;
      let cycles = 0;
      // Three clients, each a command cycle then a read, paced well under RATE requests a second in all.
      const client = async (id: number) => {
        for (let i = 0; running; i++) {
          const nodeId = `clk-${id}-${i}`;
          const answers = [await ledger.post('/v1/nodes', { nodeId, hostname: nodeId })];
          const acquired = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl', `m${id}`), nodeId });
          answers.push(acquired);
          if (acquired.status === 201) answers.push(await ledger.post(`/v1/allocations/${acquired.body.token}/release`, {}));
          answers.push(await ledger.get<Schema<'NodeResponseDto'>>(`/v1/nodes/${nodeId}`));
          for (const answer of answers) {
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            if (answer.status >= 400) refusals.push(JSON.stringify(answer.body));
          }
          cycles++;
          await sleep(250);
        }
      };
      const load = [1, 2, 3].map((id) => client(id));
      try {
        await sleep(1_500);
        const before = Date.now();
        stepTo(-3_600);
        await until(async () => assert.equal(await stepsCounted('backward'), 1), PATIENCE_MS, 'the step back counted');
        // A reservation the step forward must expire: 30 minutes from the stepped-back time, an hour before the time stepped to.
        assert.equal((await ledger.post('/v1/nodes', { nodeId: 'clk-reserved', hostname: 'clk-reserved' })).status, 201);
        const reserved = await ledger.post<Schema<'ReserveNodeResponseDto'>>('/v1/nodes/clk-reserved/reservations', {
          agentName: 'autopilot',
          ttlSeconds: 1_800,
        });
        assert.equal(reserved.status, 201);
        assert.ok(Date.parse(reserved.body.expiresAt) < before, 'stamped by the stepped-back clock');
        // A deployment (timeout LEDGER_DEPLOY_TIMEOUT_SECONDS, 30 minutes) and a lease ending in 40 minutes, both by the stepped-back clock.
        assert.equal((await ledger.post('/v1/nodes', { nodeId: 'clk-deploy', hostname: 'clk-deploy' })).status, 201);
        const deploy = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl', 'md'), nodeId: 'clk-deploy' });
        assert.equal(deploy.status, 201);
        assert.equal((await ledger.post(`/v1/allocations/${deploy.body.token}/deploying`, {})).status, 200);
        const lease = {
          ip: '10.77.0.1',
          mac: '52:54:00:77:00:01',
          owner: { token: deploy.body.token },
          kind: 'dhcp',
          expiresAt: new Date(before - 20 * 60_000).toISOString(),
        };
        assert.equal((await ledger.post('/v1/leases', lease)).status, 201);
        assert.deepEqual(await leaseStatuses(), ['valid']);
        const cyclesBefore = cycles;
        await until(async () => assert.ok(cycles >= cyclesBefore + 10), PATIENCE_MS, 'load after the step back');
        stepTo(3_600);
        await until(async () => assert.equal(await stepsCounted('forward'), 1), PATIENCE_MS, 'the step forward counted');
        const cyclesAfter = cycles;
        await until(async () => assert.ok(cycles >= cyclesAfter + 10), PATIENCE_MS, 'load after the step forward');
        const node = await ledger.get<Schema<'NodeResponseDto'>>('/v1/nodes/clk-reserved');
        assert.equal(node.body.reservation, null, 'the reservation the new time says has expired is gone');
        assert.equal(node.body.status, 'ready');
        assert.deepEqual(await leaseStatuses(), ['expired'], 'the lease the new time says has ended');
        await until(
          async () =>
            assert.ok(
              (await ledger.get<Schema<'NodeResponseDto'>>('/v1/nodes/clk-deploy')).body.faults.some(
                (fault: { name: string }) => fault.name === 'deploy_timeout',
              ),
            ),
          PATIENCE_MS,
          'the deployment past its timeout by the new time faulted',
        );
      } finally {
        running = false;
        await Promise.all(load);
      }

      assert.equal(statuses.get(429) ?? 0, 0, `no 429 at about half the rate: ${refusals.slice(0, 3).join(' ')}`);
      assert.deepEqual(
        [...statuses.keys()].filter((status) => status >= 400),
        [],
        `every command of the load succeeded: ${refusals.slice(0, 3).join(' ')}`,
      );
      assert.equal(await stepsCounted('backward'), 1, 'each step counted once');
      assert.equal(await stepsCounted('forward'), 1);

      const steps = ledger.logs
        .split('\n')
        .filter((line) => line.includes('"stepMs"'))
        .map((line) => JSON.parse(line));
      assert.equal(steps.length, 2, `one line per step: ${JSON.stringify(steps)}`);
      const [back, forward] = steps;
      assert.equal(back.level, 40);
      assert.equal(back.direction, 'backward');
      assert.ok(Math.abs(back.stepMs + HOUR_MS) < 5_000, `its size: ${back.stepMs}`);
      assert.equal(forward.level, 40);
      assert.ok(Math.abs(forward.stepMs - 2 * HOUR_MS) < 5_000, `its size: ${forward.stepMs}`);

      await ledger.stop();
      const store = await SqliteEventStore.open({ file: join(ledger.dataDir, 'events.sqlite') });
      try {
        const events = await store.readAll({ fromPosition: 0, maxCount: 100_000 });
        assert.ok(events.length > 50, `${events.length} events`);
        for (let i = 1; i < events.length; i++) {
          assert.ok(events[i].recordedAt >= events[i - 1].recordedAt, `recordedAt fell at position ${events[i].position}`);
        }
        const last = events[events.length - 1].recordedAt;
        assert.ok(Date.parse(last) > Date.now() + HOUR_MS / 2, `the last events carry the stepped-forward time: ${last}`);
      } finally {
        await store.close();
      }
    });
  },
);
