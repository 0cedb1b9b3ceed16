import { noLongerYours, text, type MaasAnswer } from '../maas/maas-answer';
import { LedgerUnavailable } from '../ledger/ledger-access';
import type { FacadeContext } from './facade-request';

/**
 * The owner data a set_owner_data form carries, read as MAAS reads it: every field but
 * `op`, the last value of a key given twice, an empty value removing the key.
 */
export const ownerDataOf = (form: URLSearchParams): Record<string, string> => {
  const ownerData = new Map<string, string>();
  for (const [key, value] of form) if (key !== 'op') ownerData.set(key, value);
  // fromEntries: a key named like a prototype member stays a plain key.
  return Object.fromEntries(ownerData);
};

/**
 * POST machines/{id}/?op=set_owner_data, recorded in the ledger before MAAS is asked
 * (Juju labels its machine with its model, controller and machine ids). The ledger fences
 * it by the token: a stale id is refused there, the refusal recorded in the node's
 * timeline, and answered as a stale id, so MAAS never relabels a machine someone else now
 * holds. Null when the ledger recorded it (or nothing changed) and MAAS may be asked.
 */
export const recordOwnerData = async ({ caller, request }: FacadeContext, id: string): Promise<MaasAnswer | null> => {
  if (request.raw) return text(400, 'set_owner_data takes a form (application/x-www-form-urlencoded) of keys and values.');
  const { data, error, response } = await caller.ledger.POST('/v1/allocations/{token}/owner-data', {
    params: { path: { token: id } },
    body: { ownerData: ownerDataOf(request.form) },
  });
  if (data) return null;
  const refusal = error as { code?: string; message?: string } | undefined;
  if (response.status === 409 || response.status === 404 || response.status === 403) return noLongerYours(id);
  if (response.status === 400) return text(400, `Invalid owner data: ${refusal?.message ?? 'refused by the provisioning ledger'}`);
  throw new LedgerUnavailable(`the ledger answered an owner-data change with ${response.status}`);
};
