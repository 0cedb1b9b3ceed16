import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, exponentialBuckets, Gauge, Histogram, Registry } from 'prom-client';
import { groupCommitting, type EventStore, type GroupCommitting } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { LedgerViewService } from '../read-models/ledger-view.service';
import { LogFollowers } from '../infrastructure/log-followers';
import { SubscriptionRestarts } from '../infrastructure/subscription-restarts';
import { ReadModelWriteDeferrals } from '../infrastructure/read-model-write-deferrals';
import { ReadModelWalCheckpoints } from '../infrastructure/read-model-wal-checkpoints';
import { StorageHealth } from '../infrastructure/storage-health.service';
import { WallClockSteps } from '../infrastructure/wall-clock-steps';

/** Past this many events a lag is reported as the cap: a scrape must stay cheap while a rebuild runs. */
const LAG_COUNT_CAP = 1_000;

/** Request and command latencies: from a millisecond to the read-your-writes wait (LEDGER_READ_WAIT_MS, 5 s by default). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** An append waits for its group's transaction, one fsync: sub-millisecond to tens of milliseconds. */
const APPEND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/**
 * Every series the ledger exposes on GET /metrics, defined in one place, on prom-client:
 * its default process metrics (CPU, memory, event-loop lag, GC, heap) and the ledger's own.
 * Names that existed before prom-client are kept.
 */
@Injectable()
export class LedgerMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly commands: Counter<'command' | 'outcome' | 'code'>;
  readonly commandDuration: Histogram<'command' | 'outcome'>;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    views: LedgerViewService,
    followers: LogFollowers,
    storage: StorageHealth,
    restarts: SubscriptionRestarts,
    deferrals: ReadModelWriteDeferrals,
    walCheckpoints: ReadModelWalCheckpoints,
    clockSteps: WallClockSteps,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'ledger_http_requests_total',
      help: 'HTTP responses sent, by method, route pattern (unmatched for unknown paths) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'ledger_http_request_duration_seconds',
      help: 'Time from a request arriving to its response finishing, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.commands = new Counter({
      name: 'ledger_commands_total',
      help: 'Commands (non-GET requests that reached a handler) by command and outcome: accepted, refused (a decision, with its refusal code), invalid (bad input, with its code) or error.',
      labelNames: ['command', 'outcome', 'code'],
      registers,
    });
    this.commandDuration = new Histogram({
      name: 'ledger_command_duration_seconds',
      help: 'Time from a command passing the access guard until its answer went out (validate, decide, append, answer), by command and outcome.',
      labelNames: ['command', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    // Only the embedded store commits in groups; other adapters simply have no such series.
    const grouped = groupCommitting(store);
    if (grouped) this.groupCommitSeries(grouped, registers);
    new Gauge({
      name: 'ledger_store_head_position',
      help: 'Global position of the newest event in the store.',
      registers,
      async collect() {
        this.set(await store.headPosition());
      },
    });
    new Gauge({
      name: 'ledger_read_model_position',
      help: 'Global position the read models have folded.',
      registers,
      async collect() {
        this.set((await views.current()).position);
      },
    });
    // Both lag gauges read one count per scrape: counting reads up to LAG_COUNT_CAP events per follower.
    let lagCount: ReturnType<LogFollowers['snapshot']> | null = null;
    const followerLags = () => (lagCount ??= followers.snapshot(LAG_COUNT_CAP).finally(() => setImmediate(() => (lagCount = null))));
    new Gauge({
      name: 'ledger_read_model_lag_events',
      help: `Events in the store the read models (the ledger view) have not folded yet (counted, at most ${LAG_COUNT_CAP}).`,
      registers,
      async collect() {
        const { followers: all } = await followerLags();
        this.set(all.find((follower) => follower.name === 'ledger-view')!.lag);
      },
    });
    new Gauge({
      name: 'ledger_log_follower_lag_events',
      help: `Events in the store each follower of the log has not processed yet (counted, at most ${LAG_COUNT_CAP}): ledger-view, audit-index, and lease-cascade (where this process runs it).`,
      labelNames: ['follower'],
      registers,
      async collect() {
        this.reset();
        for (const follower of (await followerLags()).followers) this.set({ follower: follower.name }, follower.lag);
      },
    });
    this.registry.registerMetric(restarts.counter);
    this.registry.registerMetric(deferrals.counter);
    this.registry.registerMetric(walCheckpoints.duration);
    this.registry.registerMetric(clockSteps.counter);
    new Counter({
      name: 'ledger_store_foreign_events_skipped_total',
      help: "Events in EventStoreDB's $all that the ledger did not write, skipped by reads and subscriptions (EventStoreDB only).",
      registers,
      collect() {
        this.reset();
        const skipped = (store as EventStore & { foreignEventsSkipped?: number }).foreignEventsSkipped;
        if (skipped !== undefined) this.inc(skipped);
      },
    });
    new Gauge({
      name: 'ledger_storage_writable',
      help: 'Whether the ledger can write (0 while the disk is full or read-only, or the store file was replaced).',
      registers,
      collect() {
        this.set(storage.current ? 0 : 1);
      },
    });
    new Counter({
      name: 'ledger_storage_refused_writes_total',
      help: 'Writes (commands and read-model writes) the disk refused: full, read-only, failing, or a replaced store file.',
      registers,
      collect() {
        this.reset();
        this.inc([...storage.refusedWrites().values()].reduce((sum, count) => sum + count, 0));
      },
    });
  }

  private groupCommitSeries(store: GroupCommitting, registers: Registry[]): void {
    new Counter({
      name: 'ledger_store_appends_total',
      help: "Appends (one command's events on one stream) that went through a group-commit transaction, whatever their outcome.",
      registers,
      collect() {
        this.reset();
        this.inc(store.stats().appends);
      },
    });
    new Counter({
      name: 'ledger_store_transactions_total',
      help: 'Write transactions (each one fsync with LEDGER_SQLITE_SYNCHRONOUS=FULL) that committed those appends.',
      registers,
      collect() {
        this.reset();
        this.inc(store.stats().transactions);
      },
    });
    const appendLatency = new Histogram({
      name: 'ledger_store_append_duration_seconds',
      help: 'Store append latency: from an append being submitted to its group-commit transaction ending.',
      buckets: APPEND_BUCKETS,
      registers,
    });
    const perCommit = new Histogram({
      name: 'ledger_store_commit_appends',
      help: 'Appends (commands) carried by each group-commit transaction.',
      buckets: exponentialBuckets(1, 2, 10),
      registers,
    });
    store.observeCommits(({ appends, appendSeconds }) => {
      perCommit.observe(appends);
      for (const seconds of appendSeconds) appendLatency.observe(seconds);
    });
  }

  /** The text exposition format, every series. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
