import { describeEventStoreContract } from '../contract/event-store.contract';
import type { ContractSubjectFactory } from '../contract/event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/**
 * The shared EventStore contract, run against a real EventStoreDB/KurrentDB node when
 * LEDGER_ESDB_URL names one (see README.md in this folder, e.g.
 * LEDGER_ESDB_URL='esdb://localhost:2113?tls=false'). Use a node started for the run, with an
 * empty database (`--mem-db`): the server cannot be wiped between tests, so every subject
 * shares one $all. Without the variable the run is reported as skipped, never as passed.
 */
const url = process.env.LEDGER_ESDB_URL;

const factory: ContractSubjectFactory = async () => {
  const opened: EventStoreDbEventStore[] = [];
  const open = async () => {
    const store = await EventStoreDbEventStore.connect(url as string);
    opened.push(store);
    return store;
  };
  return {
    store: await open(),
    // Another ledger instance: its own client and connection to the same database.
    openAnother: open,
    dispose: async () => {
      await Promise.all(opened.map((store) => store.close()));
    },
  };
};

describeEventStoreContract('EventStoreDB', url ? factory : { skip: 'LEDGER_ESDB_URL is not set: EventStoreDB contract run SKIPPED, not passed' });
