import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';

/**
 * Where the writes the main thread makes to the read-model file on its own schedule (the
 * ledger view's checkpoints and snapshots, the lease cascade's checkpoints) report giving
 * way to another writer of that file: they run on the event loop, so they do not wait for
 * a write lock someone else holds, and are tried again later
 * (ledger_read_model_writes_deferred_total, by write). A steady rate means the lock is
 * rarely free: the audit index's thread far behind, or a CLI rebuild beside the server.
 */
@Injectable()
export class ReadModelWriteDeferrals {
  /** Registered on /metrics by LedgerMetrics. */
  readonly counter = new Counter({
    name: 'ledger_read_model_writes_deferred_total',
    help: 'Read-model checkpoints and snapshots put off because another connection held the read-model file’s write lock, by write (<read model>/checkpoint or /snapshot).',
    labelNames: ['write'],
    registers: [],
  });

  /** The callback for one write (`ledger-view.v3/checkpoint`) to call each time it gives way. */
  of(write: string): () => void {
    return () => this.counter.inc({ write });
  }
}
