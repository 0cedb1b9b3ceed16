import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEventStoreContract } from '../contract';
import { SqliteEventStore } from './sqlite-event-store';

describeEventStoreContract('embedded (SQLite)', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'ledger-contract-'));
  const file = join(directory, 'events.sqlite');
  const open = () => SqliteEventStore.open({ file, pollIntervalMs: 20 });
  const store = await open();
  return {
    store,
    openAnother: open,
    dispose: async () => {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});
