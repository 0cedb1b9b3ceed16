/**
 * The lease cascade against a real SQLite event store file, killed between releasing
 * two leases: after a restart it finishes the job, no lease is released twice, and a
 * lease a new owner took meanwhile is never touched.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  leaseDecider,
  nodeDecider,
  ownerKey,
  ownerLivenessIn,
  Streams,
  type LeaseCommand,
  type LeaseEvent,
  type LeaseOwner,
  type LeaseReply,
  type LeaseState,
  type NodeCommand,
  type NodeEvent,
  type NodeReply,
  type NodeState,
  type LeaseReleased,
  type Refusal,
} from '@ledger/domain';
import { DeciderRunner, SqliteEventStore, type EventStore, type RecordedEvent, type SubscriptionRestart } from '@ledger/event-store';
import { DroppingSubscriptionsStore } from '@ledger/event-store/testing';
import { CheckpointStore } from '../runtime/checkpoint-store';
import { LeaseCascadeRunner, LEASE_CASCADE_CHECKPOINT, type LeaseReleaser } from './lease-cascade-runner';
import type { CascadeRelease, CascadeState } from './cascade-state';

const NOW = '2030-01-01T00:00:00.000Z';
const directories: string[] = [];
after(() => Promise.all(directories.map((d) => rm(d, { recursive: true, force: true }))));

/** A ledger's command side in miniature: the real deciders on the real store. */
class MiniLedger {
  readonly nodes: DeciderRunner<NodeCommand, NodeEvent, NodeState, NodeReply, Refusal>;
  readonly leases: DeciderRunner<LeaseCommand, LeaseEvent, LeaseState, LeaseReply, Refusal>;

  private constructor(
    readonly store: EventStore,
    readonly checkpointFile: string,
  ) {
    this.nodes = new DeciderRunner(store, nodeDecider);
    this.leases = new DeciderRunner(store, leaseDecider);
  }

  static async open(): Promise<MiniLedger> {
    const dir = await mkdtemp(join(tmpdir(), 'ledger-cascade-'));
    directories.push(dir);
    return new MiniLedger(await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 20 }), join(dir, 'read-models.sqlite'));
  }

  private envelope = (causationId: string | null, actor: string) => ({
    toNewEvents: (events: { type: string; data: unknown }[]) =>
      events.map((e) => ({
        id: randomUUID(),
        type: e.type,
        data: e.data,
        metadata: { correlationId: 'test', causationId, actor, requestId: null, schemaVersion: 1 },
      })),
  });

  async node(command: NodeCommand): Promise<NodeReply> {
    const handled = await this.nodes.handle(Streams.node(command.nodeId), command, this.envelope(null, 'test'));
    assert.ok(handled.outcome === 'accepted', JSON.stringify(handled));
    return handled.reply;
  }

  async grant(ip: string, mac: string, owner: LeaseOwner) {
    const active = (await this.leases.load(Streams.ip(ip))).state.active;
    const owners = active ? [owner, active.owner] : [owner];
    const liveness = Object.fromEntries(
      await Promise.all(owners.map(async (o) => [ownerKey(o), ownerLivenessIn((await this.nodes.load(Streams.node(o.nodeId))).state, o)])),
    );
    const handled = await this.leases.handle(
      Streams.ip(ip),
      { type: 'GrantLease', ip, mac, owner, leaseKind: 'dhcp', expiresAt: null, liveness, now: NOW },
      this.envelope(null, 'test'),
    );
    assert.equal(handled.outcome, 'accepted', JSON.stringify(handled));
    return handled.outcome === 'accepted' ? handled.reply.leaseId : null;
  }

  /** The releaser the app uses, minus Nest: a ReleaseLease caused by the ending event. */
  releaser(): LeaseReleaser & { sent: CascadeRelease[] } {
    const sent: CascadeRelease[] = [];
    return {
      sent,
      release: async (release, cause) => {
        sent.push(release);
        await this.leases.handle(
          Streams.ip(release.ip),
          { type: 'ReleaseLease', ip: release.ip, leaseId: release.leaseId, reason: 'owner_ended', cause: release.cause, now: NOW },
          this.envelope(cause.id, 'system:lease-cascade'),
        );
      },
    };
  }

  async releases(): Promise<RecordedEvent<string, LeaseReleased['data']>[]> {
    const all = await this.store.readAll({ maxCount: 10_000 });
    return all.filter((e) => e.type === 'LeaseReleased') as RecordedEvent<string, LeaseReleased['data']>[];
  }
}

const enlistAndAcquire = async (ledger: MiniLedger, nodeId: string, label: string) => {
  await ledger.node({ type: 'EnlistNode', nodeId, profile: { hostname: nodeId, arch: 'amd64', cpuCount: 1, memoryMb: 1, tags: [], zone: 'z' } });
  const reply = await ledger.node({
    type: 'AcquireNode',
    nodeId,
    consumer: { controller: 'autopilot', model: label },
    request: { requestId: `${label}-${nodeId}`, fingerprint: 'f' },
    reservationKeyHash: null,
    tokenEntropy: `${label}-entropy`.padEnd(16, 'x'),
    now: NOW,
  });
  assert.ok(reply.token, 'an acquire names its token');
  return reply.token;
};

/** A node with a host lease and two containers with leases: three releases when it ends. */
const seedRegion = async (ledger: MiniLedger) => {
  const token = await enlistAndAcquire(ledger, 'n1', 'region');
  const host: LeaseOwner = { kind: 'allocation', token, nodeId: 'n1' };
  const devices: LeaseOwner[] = [];
  for (const [n, mac] of [
    [1, '00:16:3e:00:00:01'],
    [2, '00:16:3e:00:00:02'],
  ] as const) {
    const reply = await ledger.node({ type: 'RegisterDevice', nodeId: 'n1', token, hostname: `lxc-${n}`, mac, now: NOW });
    assert.ok(reply.deviceId, 'a registration names its device');
    devices.push({ kind: 'device', deviceId: reply.deviceId, token, nodeId: 'n1' });
  }
  await ledger.grant('10.96.11.18', '2c:59:e5:3b:01:40', host);
  await ledger.grant('10.96.14.34', '00:16:3e:00:00:01', devices[0]);
  await ledger.grant('10.96.17.36', '00:16:3e:00:00:02', devices[1]);
  await ledger.node({ type: 'ReleaseAllocation', nodeId: 'n1', token, ending: 'force_released', now: NOW, request: null });
  return { token };
};

/** Lets the first `n` releases through, then holds the next one until told what to do. */
const gated = (inner: LeaseReleaser, n: number) => {
  let calls = 0;
  let reachedGate!: () => void;
  const reached = new Promise<void>((resolve) => (reachedGate = resolve));
  let open!: (land: boolean) => void;
  const decision = new Promise<boolean>((resolve) => (open = resolve));
  const releaser: LeaseReleaser = {
    release: async (release, cause) => {
      if (++calls <= n) return inner.release(release, cause);
      reachedGate();
      if (await decision) await inner.release(release, cause);
      await new Promise(() => undefined); // the process is dead: this call never returns
    },
  };
  return { releaser, reached, open };
};

const assertEachReleasedOnce = async (ledger: MiniLedger, allocationEndedId: string) => {
  const releases = await ledger.releases();
  assert.deepEqual(releases.map((e) => e.data.leaseId).sort(), ['1@10.96.11.18', '1@10.96.14.34', '1@10.96.17.36']);
  for (const e of releases) {
    assert.equal(e.data.reason, 'owner_ended');
    assert.equal(e.data.cause, allocationEndedId);
    assert.equal(e.metadata.causationId, allocationEndedId);
    assert.equal(e.metadata.actor, 'system:lease-cascade');
  }
};

describe('the lease cascade runner survives a crash between two releases', () => {
  for (const landed of [false, true]) {
    it(`killed while the second release was in flight (${landed ? 'it landed' : 'it never reached the store'}): a restart finishes the job`, async () => {
      const ledger = await MiniLedger.open();
      await seedRegion(ledger);
      const endedId = (await ledger.store.readAll({ maxCount: 10_000 })).find((e) => e.type === 'AllocationReleased')!.id;

      const first = CheckpointStore.open(ledger.checkpointFile);
      const gate = gated(ledger.releaser(), 1);
      const dying = new LeaseCascadeRunner(ledger.store, first, gate.releaser, { checkpointEveryMs: 10 });
      dying.start();
      await gate.reached;
      dying.crash();
      gate.open(landed);
      // A landed release is a commit on the store's writer thread: wait for it (generously, the machine may be busy).
      for (let waited = 0; landed && (await ledger.releases()).length < 2 && waited < 10_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      if (!landed) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal((await ledger.releases()).length, landed ? 2 : 1);
      const saved = first.load<CascadeState>(LEASE_CASCADE_CHECKPOINT);
      const endedPosition = (await ledger.store.readAll({ maxCount: 10_000 })).find((e) => e.id === endedId)!.position;
      assert.ok((saved?.position ?? 0) < endedPosition, 'nothing of the half-done event was checkpointed');
      first.close();

      // Meanwhile the address of the container whose release was cut short goes to a new allocation:
      // if that lease is still active (an orphan), the grant closes it first.
      const newToken = await enlistAndAcquire(ledger, 'n2', 'next');
      const takenReleasedBefore = (await ledger.releases()).some((e) => e.data.leaseId === '1@10.96.17.36');
      const taken = await ledger.grant('10.96.17.36', '00:16:3e:00:00:99', { kind: 'allocation', token: newToken, nodeId: 'n2' });

      const second = CheckpointStore.open(ledger.checkpointFile);
      const releaser = ledger.releaser();
      const restarted = new LeaseCascadeRunner(ledger.store, second, releaser);
      restarted.start();
      assert.equal(await restarted.catchUp(5_000), true);
      await restarted.stop();
      second.close();

      const releases = await ledger.releases();
      const cascaded = releases.filter((e) => e.data.reason === 'owner_ended');
      const superseded = releases.filter((e) => e.data.reason === 'superseded_orphan');
      assert.equal(superseded.length, takenReleasedBefore ? 0 : 1);
      if (takenReleasedBefore) await assertEachReleasedOnce(ledger, endedId);
      else {
        assert.deepEqual(cascaded.map((e) => e.data.leaseId).sort(), ['1@10.96.11.18', '1@10.96.14.34']);
        assert.equal(superseded[0].data.leaseId, '1@10.96.17.36');
      }
      const perLease = new Map<string, number>();
      releases.forEach((e) => perLease.set(e.data.leaseId, (perLease.get(e.data.leaseId) ?? 0) + 1));
      assert.ok(
        [...perLease.values()].every((count) => count === 1),
        `a lease was released twice: ${JSON.stringify([...perLease])}`,
      );
      assert.ok(!releases.some((e) => e.data.leaseId === taken), "the new owner's lease was never touched");
      assert.equal((await ledger.leases.load(Streams.ip('10.96.17.36'))).state.active?.leaseId, taken);
      assert.equal(takenReleasedBefore, landed);
      assert.ok(releaser.sent.length >= 2, "the restarted cascade re-sent the unfinished event's releases");
      await ledger.store.close();
    });
  }

  it('a release that fails is retried, never skipped; a stop during the retries keeps the last whole-event checkpoint', async () => {
    const ledger = await MiniLedger.open();
    await seedRegion(ledger);
    const all = await ledger.store.readAll({ maxCount: 10_000 });
    const ended = all.find((e) => e.type === 'AllocationReleased')!;
    const checkpoints = CheckpointStore.open(ledger.checkpointFile);
    const inner = ledger.releaser();
    let failures = 0;
    const flaky: LeaseReleaser = {
      release: async (release, cause) => {
        if (inner.sent.length === 2) {
          failures++;
          throw new Error('the store is away');
        }
        return inner.release(release, cause);
      },
    };
    const errors: unknown[] = [];
    const runner = new LeaseCascadeRunner(ledger.store, checkpoints, flaky, { retryDelayMs: 5, onError: (error) => errors.push(error) });
    runner.start();
    while (failures < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(await runner.waitFor(ended.position, 50), false, 'the ending event is not done while a release fails');
    await runner.stop();
    assert.ok((checkpoints.load<CascadeState>(LEASE_CASCADE_CHECKPOINT)?.position ?? 0) < ended.position);
    assert.ok(errors.length >= 3);
    checkpoints.close();

    const again = CheckpointStore.open(ledger.checkpointFile);
    const restarted = new LeaseCascadeRunner(ledger.store, again, ledger.releaser());
    restarted.start();
    assert.equal(await restarted.catchUp(5_000), true);
    await restarted.stop();
    assert.ok((again.load<CascadeState>(LEASE_CASCADE_CHECKPOINT)?.position ?? 0) >= ended.position, 'a graceful stop saves whole events');
    again.close();
    await assertEachReleasedOnce(ledger, ended.id);
    await ledger.store.close();
  });
});

describe('the lease cascade runner survives dropped subscriptions (issue 12, point 3)', () => {
  for (const seed of [5, 11]) {
    it(`resubscribes from its checkpoint after every drop, error or clean end, and finishes the job (seed ${seed})`, async () => {
      const ledger = await MiniLedger.open();
      await seedRegion(ledger);
      const endedId = (await ledger.store.readAll({ maxCount: 10_000 })).find((e) => e.type === 'AllocationReleased')!.id;
      const dropping = new DroppingSubscriptionsStore(ledger.store, { seed, maxEvents: 2 });
      const checkpoints = CheckpointStore.open(ledger.checkpointFile);
      const restarts: SubscriptionRestart[] = [];
      const runner = new LeaseCascadeRunner(dropping, checkpoints, ledger.releaser(), {
        resubscribeDelayMs: 1,
        onRestart: (restart) => restarts.push(restart),
      });
      runner.start();
      // Generous: a frozen cascade never gets there; a resubscribing one does in milliseconds.
      assert.equal(await runner.catchUp(30_000), true, 'the cascade froze on a dropped subscription');
      await runner.stop();
      checkpoints.close();
      await assertEachReleasedOnce(ledger, endedId);
      assert.ok(restarts.length > 0, 'restarts are reported');
      assert.ok(restarts.every((restart) => restart.subscriber === LEASE_CASCADE_CHECKPOINT));
      await ledger.store.close();
    });
  }
});
