/**
 * Every reason the ledger refuses a command. The HTTP layer maps each to a status
 * in one place: `invalid_request` is a 400 (bad input, never recorded), `not_found` a 404,
 * `forbidden` a 403, all others a 409.
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
  'invalid_request',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];
