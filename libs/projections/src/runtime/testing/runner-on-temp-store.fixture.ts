import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@ledger/event-store';
import type { Projector } from '../projector';
import { ProjectorRunner, type ProjectorRunnerOptions } from '../projector-runner';

/** Runs `test` with `projector` behind a started runner on a fresh store of its own, then stops and removes both. */
export const withRunnerOnTempStore = async <P extends Projector>(
  projector: P,
  options: ProjectorRunnerOptions,
  test: (context: { store: SqliteEventStore; runner: ProjectorRunner<P> }) => Promise<void>,
): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-runner-'));
  const store = await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL', pollIntervalMs: 5 });
  const runner = new ProjectorRunner(store, projector, options);
  try {
    runner.start();
    await test({ store, runner });
  } finally {
    await runner.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
};
