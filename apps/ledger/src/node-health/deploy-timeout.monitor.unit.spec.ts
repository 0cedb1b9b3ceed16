import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PinoLogger } from 'nestjs-pino';
import type { NodeCommand } from '@ledger/domain';
import { emptyLedgerView, emptyNodeHealthView, type LedgerViewState, type NodeView } from '@ledger/projections';
import type { NodeCommandService } from '../command-side/node-command.service';
import type { LedgerViewService } from '../read-side/ledger-view.service';
import type { LedgerConfig } from '../config/ledger-config';
import { cryptoRandomness } from '../infrastructure/randomness';
import { DeployTimeoutMonitor } from './deploy-timeout.monitor';
import { StorageHealth } from '../health/storage-health.service';

const node = (nodeId: string, startedAt: string | null, faulted = false): NodeView => ({
  nodeId, hostname: nodeId, arch: 'amd64', cpuCount: 1, memoryMb: 1, tags: [], zone: 'z', epoch: 1, liveToken: null, reservation: null,
  enlistedAt: startedAt ?? '', lastPosition: 1,
  health: {
    ...emptyNodeHealthView(),
    deployment: startedAt ? { token: `${nodeId}-token`, startedAt } : null,
    faults: faulted ? { deploy_timeout: { fault: 'deploy_timeout', since: startedAt!, lastError: 'late', token: `${nodeId}-token` } } : {},
  },
});

const setUp = (nodes: NodeView[], attempt: (command: NodeCommand) => Promise<unknown> = async () => ({ accepted: { position: null, reply: {} } })) => {
  const view: LedgerViewState = { ...emptyLedgerView(), nodes: Object.fromEntries(nodes.map((n) => [n.nodeId, n])) };
  const asked: NodeCommand[] = [];
  const logger = { setContext() {}, warn() {}, error() {} } as unknown as PinoLogger;
  const monitor = new DeployTimeoutMonitor(
    { attempt: (command: NodeCommand) => (asked.push(command), attempt(command)) } as unknown as NodeCommandService,
    { view } as LedgerViewService,
    () => new Date('2026-01-01T00:10:00.000Z'),
    cryptoRandomness,
    { deployTimeoutSeconds: 300, healthCheckIntervalMs: 60_000 } as LedgerConfig,
    logger,
    new StorageHealth({} as LedgerConfig, logger),
  );
  return { monitor, asked };
};

describe('the deploy-timeout timer', () => {
  it('asks the node stream about the deployments the read model thinks overdue, and only those', async () => {
    const { monitor, asked } = setUp([
      node('late', '2026-01-01T00:04:00.000Z'),
      node('on-time', '2026-01-01T00:06:00.000Z'),
      node('already-faulted', '2026-01-01T00:00:00.000Z', true),
      node('idle', null),
    ]);
    await monitor.checkOnce();
    assert.deepEqual(asked, [{ type: 'CheckDeployTimeout', nodeId: 'late', timeoutSeconds: 300, now: '2026-01-01T00:10:00.000Z' }]);
  });

  it('joins a pass still running instead of starting another, and keeps going past a failing node', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { monitor, asked } = setUp([node('a', '2026-01-01T00:00:00.000Z'), node('b', '2026-01-01T00:00:00.000Z')], async (command) => {
      await gate;
      if (command.nodeId === 'a') throw new Error('store unavailable');
      return { accepted: { position: 7, reply: {} } };
    });
    const first = monitor.checkOnce();
    assert.equal(monitor.checkOnce(), first);
    release();
    await first;
    assert.deepEqual(asked.map((c) => c.nodeId), ['a', 'b']);
  });

  it('runs on an unref\'d interval and stops before shutdown, finishing the pass under way', async () => {
    let finished = false;
    const { monitor } = setUp([node('a', '2026-01-01T00:00:00.000Z')], async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished = true;
      return { accepted: { position: null, reply: {} } };
    });
    monitor.onApplicationBootstrap();
    const timer = (monitor as unknown as { timer: NodeJS.Timeout }).timer;
    assert.equal(timer.hasRef(), false, 'the timer must not keep the process alive');
    void monitor.checkOnce();
    await monitor.beforeApplicationShutdown();
    assert.equal(finished, true, 'shutdown waited for the pass');
    assert.equal((monitor as unknown as { timer: NodeJS.Timeout | null }).timer, null);
  });
});
