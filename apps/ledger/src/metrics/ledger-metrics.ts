import { Inject, Injectable } from '@nestjs/common';
import type { EventStore, GroupCommitStats } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { LedgerViewService } from '../read-side/ledger-view.service';
import { SubscriptionRestarts } from '../infrastructure/subscription-restarts';
import { type Counter, MetricsRegistry } from './metrics-registry';
import { StorageHealth } from '../health/storage-health.service';

/** Only the embedded store commits in groups; other adapters simply have no such series. */
const groupCommitStatsOf = (store: EventStore): GroupCommitStats | undefined => {
  const withStats = store as EventStore & { stats?: () => GroupCommitStats };
  return typeof withStats.stats === 'function' ? withStats.stats() : undefined;
};

/** Past this many events the lag is reported as the cap: a scrape must stay cheap while a rebuild runs. */
const LAG_COUNT_CAP = 1_000;

/** Every series the ledger exposes on GET /metrics, defined in one place. */
@Injectable()
export class LedgerMetrics {
  readonly registry = new MetricsRegistry();
  readonly httpRequests: Counter;
  readonly commands: Counter;

  constructor(@Inject(EVENT_STORE) store: EventStore, views: LedgerViewService, storage: StorageHealth, restarts: SubscriptionRestarts) {
    const r = this.registry;
    this.httpRequests = r.counter('ledger_http_requests_total', 'HTTP responses sent, by method, route pattern (unmatched for unknown paths) and status.', [
      'method', 'route', 'status',
    ]);
    this.commands = r.counter(
      'ledger_commands_total',
      'Commands (non-GET requests that reached a handler) by command and outcome: accepted, refused (a decision, with its refusal code), invalid (bad input, with its code) or error.',
      ['command', 'outcome', 'code'],
    );
    r.counterFrom('ledger_store_appends_total', 'Appends (one command\'s events on one stream) that went through a group-commit transaction, whatever their outcome.', () => groupCommitStatsOf(store)?.appends);
    r.counterFrom('ledger_store_transactions_total', 'Write transactions (each one fsync with LEDGER_SQLITE_SYNCHRONOUS=FULL) that committed those appends.', () => groupCommitStatsOf(store)?.transactions);
    r.gauge('ledger_store_head_position', 'Global position of the newest event in the store.', () => store.headPosition());
    r.gauge('ledger_read_model_position', 'Global position the read models have folded.', () => views.view.position);
    // Counted, not head minus position: positions are event numbers on the embedded store but log bytes on EventStoreDB.
    r.gauge('ledger_read_model_lag_events', `Events in the store the read models have not folded yet (counted, at most ${LAG_COUNT_CAP}).`, async () =>
      (await store.readAll({ fromPosition: views.view.position, maxCount: LAG_COUNT_CAP })).length);
    r.counterOf('ledger_subscription_restarts_total', 'Resubscriptions to the log after a subscription failed (reason=error) or was ended by the store (reason=ended), by subscriber.', restarts.counter);
    r.counterFrom('ledger_store_foreign_events_skipped_total', 'Events in EventStoreDB\'s $all that the ledger did not write, skipped by reads and subscriptions (EventStoreDB only).', () => (store as EventStore & { foreignEventsSkipped?: number }).foreignEventsSkipped);
    r.gauge('ledger_storage_writable', 'Whether the ledger can write (0 while the disk is full or read-only, or the store file was replaced).', () => (storage.current ? 0 : 1));
    r.counterFrom('ledger_storage_refused_writes_total', 'Writes (commands and read-model writes) the disk refused: full, read-only, failing, or a replaced store file.', () =>
      [...storage.refusedWrites().values()].reduce((sum, count) => sum + count, 0),
    );
    r.gauge('process_resident_memory_bytes', 'Resident set size of the ledger process.', () => process.memoryUsage.rss());
    r.gauge('process_start_time_seconds', 'Start time of the ledger process since the Unix epoch.', () => Math.round(Date.now() / 1000 - process.uptime()));
  }
}
