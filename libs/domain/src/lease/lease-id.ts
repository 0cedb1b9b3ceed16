/**
 * A lease's id: `<n>@<ip>`, the n-th lease granted on that address. Opaque to clients;
 * unique by construction, because n counts up on the address's own stream.
 */
export type LeaseId = string;

export const mintLeaseId = (ip: string, sequence: number): LeaseId => `${sequence}@${ip}`;

export const parseLeaseId = (leaseId: string): { ip: string; sequence: number } | null => {
  const match = /^([1-9][0-9]{0,14})@(.+)$/.exec(leaseId);
  return match ? { ip: match[2], sequence: Number(match[1]) } : null;
};
