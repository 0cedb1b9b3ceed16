/**
 * Every reason the ledger refuses a command. The HTTP layer maps each to a status
 * in one place: `not_found` is a 404, `forbidden` a 403, all others a 409.
 */
export const REFUSAL_CODES = [
  'stale_token',
  'node_unavailable',
  'node_reserved',
  'reservation_mismatch',
  'wrong_state',
  'no_matching_node',
  'node_faulted',
  'node_in_maintenance',
  'ip_in_use',
  'request_conflict',
  'already_exists',
  'not_found',
  'forbidden',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];
