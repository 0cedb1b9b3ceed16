import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { judgeDhcpRecord, type DhcpRecordJudgement, type DhcpVerdict, type LeaseOwner } from '@ledger/domain';
import { liveDevicesByMac } from '@ledger/projections';
import { LedgerViewService } from '../../read-models/ledger-view.service';
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
  /** The source reports every change of the server's lease database (the DHCP agent). */
  following?: boolean;
}

export interface DhcpLeaseResult extends DhcpRecordJudgement {
  ip: string;
  mac: string;
  leaseId?: string;
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
    private readonly views: LedgerViewService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ body, context }: ObserveDhcpLeases): Promise<LeaseObservationsAnswer> {
    const records = parseDhcpLeaseRecords(body.leases);
    const now = this.clock().toISOString();
    const cache: LivenessCache = new Map();
    const candidates = await this.candidateOwners(records);
    const results: DhcpLeaseResult[] = new Array(records.length);
    let position: number | null = null;

    // Records of one address are handled in order (the last one wins, as in the lease file).
    const byAddress = new Map<string, number[]>();
    records.forEach((record, i) => byAddress.set(record.ip, [...(byAddress.get(record.ip) ?? []), i]));
    const queue = [...byAddress.values()];
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        for (const i of group) {
          const observed = await this.observe(records[i], candidates.get(records[i].mac) ?? null, body, now, context, cache);
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

  /**
   * The device each bound MAC belongs to, when exactly one live device is registered with
   * it. The view only proposes: the decision reads the device's liveness from its node
   * stream. The view is read past every command answered, so a device registered before
   * this request is seen.
   */
  private async candidateOwners(records: DhcpLeaseRecord[]): Promise<Map<string, LeaseOwner>> {
    const held = records.filter((record) => record.state === 'active');
    if (held.length === 0) return new Map();
    const byMac = liveDevicesByMac(await this.views.current());
    const owners = new Map<string, LeaseOwner>();
    for (const { mac } of held) {
      const devices = byMac.get(mac);
      if (devices?.length !== 1) continue;
      const [device] = devices;
      owners.set(mac, { kind: 'device', deviceId: device.deviceId, token: device.token, nodeId: device.nodeId });
    }
    return owners;
  }

  private async observe(
    record: DhcpLeaseRecord,
    candidate: LeaseOwner | null,
    body: LeaseObservationsInput,
    now: string,
    context: RequestContext,
    cache: LivenessCache,
  ) {
    const { source } = body;
    const following = body.following === true ? { following: true as const } : {};
    const { state, position } = await this.leases.execute(
      record.ip,
      (liveness) => ({ type: 'ObserveDhcpLease', ...record, ...following, source, candidate, liveness, now }),
      context,
      { cache, also: candidate ? [candidate] : [] },
    );
    const liveness = await this.leases.livenessOf(state.active ? [state.active.owner] : [], cache);
    const judgement = judgeDhcpRecord(record, state, liveness, now);
    const leaseId = judgement.verdict === 'valid' && state.active ? { leaseId: state.active.leaseId } : {};
    return { result: { ip: record.ip, mac: record.mac, ...judgement, ...leaseId }, position };
  }
}
