/**
 * After a CLI rebuild promotes its own checkpoint of the view beside the running server,
 * the server's next timed checkpoint must save its whole state: it writes it a step at a
 * time (here 3 entities a step) into a new row set, on a real read-model file shared by two
 * connections, and ends with the view's checkpoint at its position and no rows left over.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SqliteEventStore } from '@ledger/event-store';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import type { LedgerViewState } from '../ledger-view/views';
import { appenderTo, appendsOf, generatedHistoriesArb } from '../rebuild/testing/generated-log';
import { CheckpointStore } from './checkpoint-store';
import { openReadModelDatabase } from './read-model-database';
import { ProjectionRunner } from './projection-runner';
import { StateFold } from './state-fold';
import { eventually } from './testing/eventually';

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('a live view’s full checkpoint after a CLI rebuild beside it', () => {
  it('is written a step at a time into a row set of its own, and ends as the view at its position with nothing left over', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledger-staged-'));
    const store = await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL', pollIntervalMs: 5 });
    const file = join(dir, 'read-models.sqlite');
    const db = openReadModelDatabase(file);
    const cli = openReadModelDatabase(file);
    const checkpoints = CheckpointStore.on(db);
    const name = ledgerProjection.name;
    let stepsWritten = 0;
    const writeStaged = checkpoints.writeStaged.bind(checkpoints);
    checkpoints.writeStaged = (...args) => {
      stepsWritten++;
      writeStaged(...args);
    };
    const view = new ProjectionRunner(store, checkpoints, ledgerProjection, { checkpointEveryMs: 10, fullSaveStep: 3 });
    try {
      const [first, more] = fc.sample(generatedHistoriesArb(60), { numRuns: 2, seed: 11 }).map(appendsOf);
      const write = appenderTo(store);
      await write(first);
      view.start();
      assert.ok(await view.catchUp(10_000));
      view.checkpoint();
      // Which set: a timed step may have begun one before this save at once superseded it.
      const before = checkpoints.liveRowSet(name);
      assert.match(before ?? '', /#\d+$/);

      // The CLI's rebuild, promoted beside the server: its own state, saved whole.
      const rebuilt = new StateFold(ledgerProjection, ledgerProjection.initialState());
      rebuilt.applyPage(await store.readAll({ fromPosition: 0, maxCount: 100_000 }));
      rebuilt.saveCheckpointsTo(CheckpointStore.on(cli), { whole: true });
      rebuilt.flush();
      assert.equal(checkpoints.load(name)?.savedAs, 'whole');
      stepsWritten = 0;

      await write(more);
      assert.ok(await view.catchUp(10_000));
      const entities = Object.keys(view.state.nodes).length + Object.keys(view.state.allocations).length;
      assert.ok(entities > 3 * 3, `entities: ${entities}, more than three steps of them`);
      await eventually(() => {
        const stored = checkpoints.load<LedgerViewState>(name);
        return stored?.savedAs === 'entities' && stored.position === view.position && !checkpoints.hasGarbage(name);
      }, 'the view’s own checkpoint at its position, and no garbage');
      const after = checkpoints.liveRowSet(name);
      assert.ok(after !== null && after !== before, `a new row set: ${before} then ${after}`);
      assert.ok(stepsWritten >= 3, `written in ${stepsWritten} steps`);
      assert.deepStrictEqual(plain(checkpoints.load<LedgerViewState>(name)!.state), plain(view.state));
      assert.equal(db.prepare('SELECT count(*) FROM checkpoint_entities WHERE name != ?').pluck().get(after), 0);
    } finally {
      await view.stop();
      cli.close();
      db.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
