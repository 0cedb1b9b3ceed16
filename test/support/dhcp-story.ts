import assert from 'node:assert/strict';
import type { LedgerProcess } from '@ledger/testing';
import { eventually } from './region';

/**
 * Seed 2's `destroy-model --force`, as both DHCP servers' stories tell it: the model released
 * by force, then, within seconds, every given address ended in the ledger (none valid, its
 * latest lease ended).
 */
export const forceReleaseModel = async (ledger: LedgerProcess, model: { controller: string; model: string }, addresses: string[]): Promise<void> => {
  const released = await ledger.post('/v1/models/release', { ...model, force: true });
  assert.equal(released.status, 200, JSON.stringify(released.body));
  await eventually(30_000, async () => {
    for (const address of addresses) {
      const view = (await ledger.get(`/v1/leases/${address}`)).body as { status: string; history: { ended: object | null }[] };
      if (view.status === 'valid' || view.history[0].ended === null) return false;
    }
    return true;
  });
};
