import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { judgeDhcpRecord, type DhcpRecordJudgement, type DhcpVerdict } from '@ledger/domain';
import { LeaseCommandService, type LivenessCache } from '../../application/lease-command.service';
import type { RequestContext } from '../../application/request-context';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import { parseDhcpLeaseRecords, type DhcpLeaseRecord } from './dhcp-lease-records';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface LeaseObservationsInput {
  source: string;
  /** Raw records: each is checked by parseDhcpLeaseRecords. */
  leases: unknown[];
}

export interface DhcpLeaseResult extends DhcpRecordJudgement {
  ip: string;
  mac: string;
}

export interface LeaseObservationsAnswer {
  source: string;
  received: number;
  results: DhcpLeaseResult[];
  summary: Record<DhcpVerdict, number>;
  /** Global position of the last observation recorded, null if none differed from the last import. */
  position: number | null;
}

/** Addresses worked on at once: enough for the store's group commit to batch their appends. */
const PARALLEL_ADDRESSES = 32;

export class ObserveDhcpLeases extends Command<LeaseObservationsAnswer> {
  constructor(
    readonly body: LeaseObservationsInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

/**
 * A DHCP server's lease records (seed 2): each is recorded on its address's stream when
 * it differs from what that server said last (so a re-import appends nothing), and
 * judged against the ledger: a binding the server holds is valid only if it is a valid
 * ledger lease for that MAC; otherwise it is orphaned.
 */
@CommandHandler(ObserveDhcpLeases)
export class ObserveDhcpLeasesHandler implements ICommandHandler<ObserveDhcpLeases> {
  constructor(
    private readonly leases: LeaseCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ body, context }: ObserveDhcpLeases): Promise<LeaseObservationsAnswer> {
    const records = parseDhcpLeaseRecords(body.leases);
    const now = this.clock().toISOString();
    const cache: LivenessCache = new Map();
    const results: DhcpLeaseResult[] = new Array(records.length);
    let position: number | null = null;

    // Records of one address are handled in order (the last one wins, as in the lease file).
    const byAddress = new Map<string, number[]>();
    records.forEach((record, i) => byAddress.set(record.ip, [...(byAddress.get(record.ip) ?? []), i]));
    const queue = [...byAddress.values()];
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        for (const i of group) {
          const observed = await this.observe(records[i], body.source, now, context, cache);
          results[i] = observed.result;
          if (observed.position !== null) position = Math.max(position ?? 0, observed.position);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_ADDRESSES, queue.length) }, worker));

    const summary: Record<DhcpVerdict, number> = { valid: 0, orphaned: 0, released: 0, unknown: 0 };
    for (const result of results) summary[result.verdict]++;
    return { source: body.source, received: records.length, results, summary, position };
  }

  private async observe(record: DhcpLeaseRecord, source: string, now: string, context: RequestContext, cache: LivenessCache) {
    const { state, position } = await this.leases.execute(record.ip, () => ({ type: 'ObserveDhcpLease', ...record, source, now }), context, { cache });
    const liveness = await this.leases.livenessOf(state.active ? [state.active.owner] : [], cache);
    return { result: { ip: record.ip, mac: record.mac, ...judgeDhcpRecord(record, state, liveness, now) }, position };
  }
}
