import type { Refusal } from '@ledger/domain';

/**
 * A refused decision travelling to the one place that maps refusals to HTTP, with the
 * position of the CommandRefused event that recorded it (null when none was recorded).
 */
export class LedgerRefusal extends Error {
  override readonly name = 'LedgerRefusal';
  constructor(
    readonly refusal: Refusal,
    readonly position: number | null = null,
  ) {
    super(refusal.message);
  }
}
