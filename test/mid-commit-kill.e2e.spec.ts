/**
 * A kill that lands while the writer thread is inside a commit loses nothing acknowledged
 * (issue 16). The ledger starts with LEDGER_TEST_WRITER_PAUSE_IN_COMMIT=N: its writer
 * thread appends the N-th batch, then stops inside the open transaction, before COMMIT,
 * and says so on stderr. The test waits for that line, checks the server still answers
 * (the commit no longer holds the event loop), kills it with SIGKILL, restarts it on the
 * same data dir, and checks every acknowledged command against the log. Deterministic: the
 * kill always falls between the batch's writes and its COMMIT.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { LedgerProcess } from '@ledger/testing';
import { seededRandom, seedFrom } from './support/seeded-random';
import { CrashWorld, pickCommand, type MixContext } from './support/crash-command-mix';
import { allocationInvariantProblems, missingEvidence, readWholeLog, structuralProblems } from './support/log-audit';

const NODES = 16;
const CLIENTS = 6;
/** Past the enlistments (one transaction each), so the paused batch carries the mixed load. */
const PAUSE_IN_TRANSACTION = NODES + 40;
const seed = seedFrom('LEDGER_CRASH_SEED');

describe('kill mid-commit', () => {
  it(`finds every acknowledged command after a SIGKILL inside the writer's transaction (seed ${seed})`, { timeout: 110_000 }, async () => {
    const random = seededRandom(seed);
    const world = new CrashWorld(`m${seed.toString(36)}`, NODES * 2);
    let ledger = await LedgerProcess.start({ env: { LEDGER_TEST_WRITER_PAUSE_IN_COMMIT: String(PAUSE_IN_TRANSACTION) } });
    const eventsFile = join(ledger.dataDir, 'events.sqlite');
    let stop = false;
    let inFlight = 0;
    try {
      for (let index = 0; index < NODES; index++) {
        const nodeId = world.nextNodeId();
        assert.equal((await ledger.post('/v1/nodes', { nodeId, hostname: `${nodeId}.maas`, cpuCount: 8, memoryMb: 16384, zone: 'a' })).status, 201);
        world.nodes.push(nodeId);
      }
      const paused = ledger.waitForLog(/"msg":"sqlite writer paused inside a commit"/, 60_000);
      const clients = Array.from({ length: CLIENTS }, async (_, client) => {
        const clientRandom = random.fork();
        const context: MixContext = { ledger: () => ledger, world, random: clientRandom, client };
        while (!stop) {
          inFlight++;
          try {
            await pickCommand(world, clientRandom).run(context);
          } finally {
            inFlight--;
          }
        }
      });
      await paused;
      // The writer holds an open write transaction; the main thread still serves reads.
      const health = await ledger.get('/healthz');
      assert.equal(health.status, 200, 'the server answers while its writer is stuck inside a commit');
      assert.ok(inFlight > 0, 'commands were waiting on the paused commit when the kill came');
      const acknowledgedBeforeKill = world.acknowledged;
      stop = true;
      await ledger.kill();
      await Promise.all(clients);
      assert.ok(acknowledgedBeforeKill > 0, 'commands were acknowledged before the kill');
      assert.ok(world.unanswered > 0, 'the kill cut off commands inside the paused commit');

      ledger = await LedgerProcess.start({ dataDir: ledger.dataDir });
      const events = await readWholeLog(eventsFile);
      const problems = [...world.violations, ...structuralProblems(events), ...allocationInvariantProblems(events), ...missingEvidence(world.evidence, events)];
      assert.deepEqual(problems, [], `after the mid-commit kill (seed ${seed})`);
      console.log(
        `mid-commit kill seed ${seed}: ${acknowledgedBeforeKill} acknowledged commands found in ${events.length} events; ${world.unanswered} cut off inside the paused commit`,
      );
    } finally {
      stop = true;
      await ledger.stop();
      ledger.removeData();
    }
  });
});
