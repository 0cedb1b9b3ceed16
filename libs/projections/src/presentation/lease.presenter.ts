import { dhcpHolding, ipStatus, leaseStatus, type IpLeasesView, type LeaseView, type LedgerViewState } from '../ledger-view';

/** A lease as the API shows it, with its status derived now. */
export const presentLease = (view: LedgerViewState, ips: IpLeasesView, lease: LeaseView, now: Date) => ({
  ip: lease.ip,
  leaseId: lease.leaseId,
  mac: lease.mac,
  kind: lease.kind,
  status: leaseStatus(view, ips, lease, now),
  owner: lease.owner,
  expiresAt: lease.expiresAt,
  learnedFrom: lease.dhcpSource ?? null,
  grantedAt: lease.grantedAt,
  renewedAt: lease.renewedAt,
  ended: lease.ended,
});

/** One address: its status, current lease, history (newest first) and what DHCP servers last said. */
export const presentIp = (view: LedgerViewState, ips: IpLeasesView, now: Date) => {
  const active = ips.leases.find((lease) => lease.leaseId === ips.activeLeaseId);
  const held = dhcpHolding(ips, now);
  return {
    ip: ips.ip,
    status: ipStatus(view, ips, now),
    current: active ? presentLease(view, ips, active, now) : null,
    history: [...ips.leases].reverse().map((lease) => presentLease(view, ips, lease, now)),
    dhcp: { heldBy: held ? { source: held.source, mac: held.mac, ends: held.ends } : null, observations: Object.values(ips.dhcp) },
  };
};
