import type { Refusal } from '@ledger/domain';

/** A refused decision travelling to the one place that maps refusals to HTTP. */
export class LedgerRefusal extends Error {
  override readonly name = 'LedgerRefusal';
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}
