import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { CheckpointStore } from '../checkpoint-store';
import { faultPlan, faultyDatabase } from './faulty-database';

export interface FaultyDisk {
  db: Database.Database;
  store: CheckpointStore;
  /** Runs a write with faults injected; answers whether the disk refused it (a full disk, a failed write). */
  refusable(write: () => void): boolean;
}

/**
 * Runs `test` with a checkpoint store on an in-memory database whose writes fail at random
 * (`probability`, seeded) inside `refusable`, and only there; closes it after.
 */
export const onFaultyDisk = (seed: number, probability: number, test: (disk: FaultyDisk) => void): void => {
  const real = new Database(':memory:');
  const plan = faultPlan(seed, probability);
  const db = faultyDatabase(real, plan);
  const refusable = (write: () => void): boolean => {
    plan.on = true;
    try {
      write();
      return false;
    } catch (error) {
      assert.match((error as { code?: string }).code ?? '', /^SQLITE_(FULL|IOERR_WRITE)$/);
      return true;
    } finally {
      plan.on = false;
    }
  };
  try {
    test({ db, store: CheckpointStore.on(db), refusable });
  } finally {
    real.close();
  }
};
