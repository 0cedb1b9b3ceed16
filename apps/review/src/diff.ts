import { consumerText, type StateDoc } from './state-doc';
import { shortToken } from './dom';

/** One thing that appeared, changed or ended between two moments, and the event that did it. */
export interface Change {
  kind: 'appeared' | 'changed' | 'ended';
  what: string;
  detail: string;
  /** The event that last changed it (in the later state; in the earlier one if it is gone). */
  position: number | null;
}

interface Keyed {
  key: string;
  what: string;
  /** The fields whose change is worth saying. */
  fingerprint: string;
  describe: string;
  ended: boolean;
  position: number | null;
}

const entitiesOf = (doc: StateDoc): Keyed[] => [
  ...doc.allocations.map((a) => ({
    key: `allocation ${a.token}`,
    what: `allocation ${shortToken(a.token)} (${consumerText(a.consumer)}, epoch ${a.epoch})`,
    fingerprint: `${a.status}|${a.live}|${a.current}`,
    describe: `${a.status}${a.live ? ', live' : ''}${a.current ? ', current' : ''}`,
    ended: !a.live,
    position: a.lastPosition,
  })),
  ...doc.devices.map((d) => ({
    key: `device ${d.deviceId}`,
    what: `device ${d.hostname} (${d.deviceId})`,
    fingerprint: `${d.removed?.reason ?? 'present'}`,
    describe: d.removed ? `removed: ${d.removed.reason}` : 'registered',
    ended: d.removed !== null,
    position: d.lastPosition,
  })),
  ...doc.leases.map((l) => ({
    key: `lease ${l.leaseId}`,
    what: `lease of ${l.ip} (${l.mac})`,
    fingerprint: l.status,
    describe: l.status,
    ended: l.status === 'released' || l.status === 'expired',
    position: l.lastPosition,
  })),
  ...doc.nodes.flatMap((n) => [
    ...n.faults.map((f) => ({
      key: `fault ${n.nodeId} ${f.name}`,
      what: `fault ${f.name} on ${n.nodeId}`,
      fingerprint: f.since,
      describe: `since ${f.since}`,
      ended: false,
      position: n.lastPosition,
    })),
    ...(n.maintenance
      ? [
          {
            key: `maintenance ${n.nodeId}`,
            what: `maintenance of ${n.nodeId}`,
            fingerprint: n.maintenance.since,
            describe: `${n.maintenance.reason} (by ${n.maintenance.by})`,
            ended: false,
            position: n.lastPosition,
          },
        ]
      : []),
    ...(n.reservation
      ? [
          {
            key: `reservation ${n.reservation.reservationId}`,
            what: `reservation for ${n.reservation.agentName}`,
            fingerprint: n.reservation.expiresAt,
            describe: `until ${n.reservation.expiresAt}`,
            ended: false,
            position: n.lastPosition,
          },
        ]
      : []),
  ]),
];

/** What differs between the state at A and the state at B (A earlier or later: the list reads from A to B). */
export const diffStates = (a: StateDoc, b: StateDoc): Change[] => {
  const before = new Map(entitiesOf(a).map((entity) => [entity.key, entity]));
  const after = new Map(entitiesOf(b).map((entity) => [entity.key, entity]));
  const changes: Change[] = [];
  for (const [key, now] of after) {
    const then = before.get(key);
    if (!then) changes.push({ kind: 'appeared', what: now.what, detail: now.describe, position: now.position });
    else if (then.fingerprint !== now.fingerprint)
      changes.push({
        kind: now.ended && !then.ended ? 'ended' : 'changed',
        what: now.what,
        detail: `${then.describe} → ${now.describe}`,
        position: now.position,
      });
  }
  // Faults, maintenance and reservations vanish from the state when they end: no entity is
  // left to name the event, which is among the node's events between the two moments.
  for (const [key, then] of before)
    if (!after.has(key))
      changes.push({ kind: 'ended', what: then.what, detail: `was ${then.describe}; ended between the two moments (the event list has it)`, position: null });
  return changes.sort((x, y) => (x.position ?? Infinity) - (y.position ?? Infinity));
};
