import type { LeaseObservation } from '@ledger/lease-files';

/** What the agent last posted for an address: the record as sent. */
export type PostedRecord = LeaseObservation;

/** The same record as the one already posted: sending it again would tell the ledger nothing. */
export const samePosted = (a: PostedRecord | undefined, b: PostedRecord): boolean =>
  !!a && a.mac === b.mac && a.state === b.state && a.starts === b.starts && a.ends === b.ends && a.hostname === b.hostname;
