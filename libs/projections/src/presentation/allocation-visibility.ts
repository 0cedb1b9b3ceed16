import type { LedgerViewState } from '../ledger-view';

/**
 * Whether the one reading may see an allocation of `consumer` in full: its token, consumer
 * and times. A consumer key sees its own controller's (and models') allocations; of
 * another's only that the node is taken, so tenants of one ledger do not learn each other's
 * model names, owners and instance ids. Operators, auditors and providers see everything.
 */
export type AllocationVisibility = (consumer: { controller: string; model?: string }) => boolean;

export const SEES_EVERY_ALLOCATION: AllocationVisibility = () => true;

/** Whether the allocation a token names may be shown to this reader; a token the view does not know is shown to those who see everything only. */
export const tokenVisible = (view: LedgerViewState, token: string, visible: AllocationVisibility): boolean => {
  if (visible === SEES_EVERY_ALLOCATION) return true;
  const allocation = view.allocations[token];
  return allocation !== undefined && visible(allocation.consumer);
};
