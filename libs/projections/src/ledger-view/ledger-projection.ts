import type { Projection } from '../runtime/projection';
import { applyEvent } from './apply-event';
import { emptyLedgerView, type LedgerViewState } from './views';

/** Nodes, allocations (and later devices and leases) as one projection over the log. */
export const ledgerProjection: Projection<LedgerViewState> = {
  name: 'ledger-view.v3',
  initialState: emptyLedgerView,
  apply: applyEvent,
};
