/**
 * Nothing acknowledged is lost, whatever the moment of a crash (issue 7, part 3).
 *
 * Several clients fire a mix of commands (test/support/crash-command-mix.ts) at the real
 * server while it is killed with SIGKILL at random moments and restarted on the same
 * data dir. After every restart, and at the end, the log must hold every acknowledged
 * command, have no torn or duplicated event, keep the allocation invariants, and the
 * read models the server answers with must equal a fold of the log from zero.
 *
 * Bounded for CI. Soak: LEDGER_SOAK=1 (200 kills, 12 clients, longer load windows);
 * LEDGER_CRASH_KILLS=N overrides the kill count; LEDGER_CRASH_SEED=S replays the
 * choices of a run (its seed is printed, and quoted in every failure message).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RecordedEvent } from '@ledger/event-store';
import { CheckpointStore, ledgerProjection, listNodes, type LedgerViewState } from '@ledger/projections';
import { presentNode } from '@ledger/projections';
import { devicesOfAllocation, presentAllocation } from '@ledger/projections';
import { LedgerProcess, PATIENCE_MS } from '@ledger/testing';
import { LoadGate } from './support/load-gate';
import { seededRandom, seedFrom, type SeededRandom } from './support/seeded-random';
import { CrashWorld, pickCommand, type MixContext } from './support/crash-command-mix';
import { allocationInvariantProblems, foldFromZero, missingEvidence, readWholeLog, structuralProblems } from './support/log-audit';
import type { Schema } from './support/answers';

const SOAK = process.env.LEDGER_SOAK === '1';
const KILLS = Number(process.env.LEDGER_CRASH_KILLS || (SOAK ? 200 : 20));
const CLIENTS = SOAK ? 12 : 6;
const LOAD_MS = SOAK ? { min: 20, max: 3_000 } : { min: 20, max: 600 };
const INITIAL_NODES = 24;
const MAX_NODES = SOAK ? 120 : 48;
const ALLOCATIONS_CHECKED_PER_RESTART = 30;

const seed = seedFrom('LEDGER_CRASH_SEED');
/** Acknowledged commands each load window waits for before its kill, so the check at the end never depends on the machine's speed. */
const MIN_ACKS_PER_WINDOW = 6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('crash recovery under load', () => {
  // A bound for a hung run, not a speed check: 110 s was hit on a 2-core machine at load 16 with the same seed before and after issue 10.
  it(`loses nothing acknowledged across ${KILLS} SIGKILLs at random moments (seed ${seed})`, { timeout: SOAK ? 3_600_000 : 900_000 }, async () => {
    console.log(`crash-recovery seed ${seed}: replay with LEDGER_CRASH_SEED=${seed}`);
    const random = seededRandom(seed);
    const world = new CrashWorld(`c${seed.toString(36)}`, MAX_NODES);
    // Checkpoints every few tens of ms, so restarts resume from a checkpoint and kills land during saves.
    const start = (dataDir?: string) => LedgerProcess.start({ dataDir, env: { LEDGER_CHECKPOINT_INTERVAL_MS: String(random.int(20, 300)) } });
    let ledger = await start();
    const eventsFile = join(ledger.dataDir, 'events.sqlite');
    const gate = new LoadGate();
    let done = false;
    const context = (client: number, clientRandom: SeededRandom): MixContext => ({ ledger: () => ledger, world, random: clientRandom, client });

    /** Everything the brief asks of the log and the served read models, with the seed in every message. */
    const verify = async (label: string, checkAllAllocations = false): Promise<RecordedEvent[]> => {
      const events = await readWholeLog(eventsFile);
      const problems = [...world.violations, ...structuralProblems(events), ...allocationInvariantProblems(events), ...missingEvidence(world.evidence, events)];
      assert.deepEqual(problems, [], `${label} (seed ${seed})`);
      await assertServedViewsEqualFold(ledger, eventsFile, events, random, checkAllAllocations, `${label} (seed ${seed})`);
      return events;
    };

    try {
      for (let index = 0; index < INITIAL_NODES; index++) {
        const nodeId = world.nextNodeId();
        const enlisted = await ledger.post('/v1/nodes', { nodeId, hostname: `${nodeId}.maas`, cpuCount: 8, memoryMb: 16384, zone: index % 2 ? 'a' : 'b' });
        assert.equal(enlisted.status, 201);
        world.nodes.push(nodeId);
      }

      const clients = Array.from({ length: CLIENTS }, async (_, client) => {
        const clientRandom = random.fork();
        for (;;) {
          await gate.enter();
          try {
            if (done) return;
            await pickCommand(world, clientRandom).run(context(client, clientRandom));
          } finally {
            gate.leave();
          }
        }
      });

      for (let kill = 1; kill <= KILLS; kill++) {
        gate.resume();
        const ackedBefore = world.acknowledged;
        await sleep(random.int(LOAD_MS.min, LOAD_MS.max));
        // A busy machine answers fewer commands in the same time: the load runs on until it has done some work, then the kill lands.
        while (world.acknowledged < ackedBefore + MIN_ACKS_PER_WINDOW) await sleep(10);
        await ledger.kill();
        await gate.pause();
        ledger = await start(ledger.dataDir);
        await verify(`after kill ${kill}`);
        if (kill % 5 === 0) {
          // Now and then a graceful restart too: the next kill then resumes from a stop's checkpoint.
          await ledger.stop();
          ledger = await start(ledger.dataDir);
          await verify(`after a graceful restart following kill ${kill}`);
        }
      }

      // The end: a last stretch of load, a graceful stop, and the checkpoint it leaves.
      gate.resume();
      await sleep(LOAD_MS.max);
      await gate.pause();
      await verify('at the end', true);
      // Invariant 5 across crashes: the lease cascade (restarted with the server each time) releases every lease of an ended owner.
      const orphans = async () => (await ledger.get('/v1/leases?status=orphaned')).body.leases as { ip: string }[];
      for (let waited = 0; (await orphans()).length > 0 && waited < PATIENCE_MS; waited += 100) await sleep(100);
      assert.deepEqual(await orphans(), [], `no lease is left orphaned (seed ${seed})`);
      await ledger.stop();
      const events = await readWholeLog(eventsFile);
      const checkpoints = CheckpointStore.open(join(ledger.dataDir, 'read-models.sqlite'));
      try {
        const checkpoint = checkpoints.load<LedgerViewState>(ledgerProjection.name);
        assert.ok(checkpoint, 'a graceful stop saves the read models');
        assert.equal(checkpoint.position, events.at(-1)!.position, `the checkpoint is at the head (seed ${seed})`);
        assert.deepEqual(checkpoint.state, plain(foldFromZero(events)), `the checkpointed read models equal a fold from zero (seed ${seed})`);
      } finally {
        checkpoints.close();
      }

      done = true;
      gate.resume();
      await Promise.all(clients);
      console.log(
        `crash-recovery seed ${seed}: ${KILLS} kills, ${world.acknowledged} acknowledged commands checked, ${world.unanswered} left unanswered by a crash, ${events.length} events, ${Object.keys(foldFromZero(events).allocations).length} allocations, ${events.filter((event) => event.type === 'LeaseGranted').length} leases granted, ${events.filter((event) => event.type === 'LeaseReleased' && (event.data as { reason?: string }).reason === 'owner_ended').length} released by the cascade`,
      );
      assert.ok(world.acknowledged > KILLS * 5, `the load did real work: ${world.acknowledged} acknowledged commands`);
      assert.ok(world.unanswered > 0, 'some kills landed while requests were in flight');
    } finally {
      done = true;
      gate.resume();
      await ledger.stop();
      ledger.removeData();
    }
  });
});

/**
 * GET /v1/nodes (all of them) and GET /v1/allocations/:token (a sample, or all) must
 * equal what presenting a fold of the log from zero gives, at the position served.
 */
async function assertServedViewsEqualFold(
  ledger: LedgerProcess,
  eventsFile: string,
  events: RecordedEvent[],
  random: SeededRandom,
  all: boolean,
  label: string,
): Promise<void> {
  const head = events.at(-1)?.position ?? 0;
  let log = events;
  /** The fold at a served position; a background writer (the lease cascade, the deploy-timeout monitor) may have moved the log on. */
  const viewAt = async (position: number): Promise<LedgerViewState> => {
    if (position > (log.at(-1)?.position ?? 0)) log = await readWholeLog(eventsFile);
    return foldFromZero(log, position);
  };
  const served = await ledger.get<Schema<'NodeListResponseDto'>>(`/v1/nodes?minPosition=${head}`);
  assert.equal(served.status, 200, label);
  const view = await viewAt(served.body.position);
  const now = new Date();
  assert.deepEqual(served.body.nodes, plain(listNodes(view, undefined, now).map((node) => presentNode(view, node, now))), `${label}: GET /v1/nodes`);

  const tokens = Object.keys(view.allocations);
  const checked = all ? tokens : Array.from({ length: Math.min(ALLOCATIONS_CHECKED_PER_RESTART, tokens.length) }, () => random.pick(tokens));
  for (let start = 0; start < checked.length; start += 16) {
    await Promise.all(
      checked.slice(start, start + 16).map(async (token) => {
        const { status, body } = await ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${token}?minPosition=${head}`);
        assert.equal(status, 200, `${label}: GET /v1/allocations/${token}`);
        const { position, ...allocation } = body;
        const at = await viewAt(position);
        const folded = at.allocations[token];
        const expected = { ...presentAllocation(at, folded), devices: devicesOfAllocation(at, folded) };
        assert.deepEqual(allocation, plain(expected), `${label}: GET /v1/allocations/${token}`);
      }),
    );
  }
}
