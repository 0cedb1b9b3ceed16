import { refuse, type Refusal } from '../core';

/**
 * A lease's new expiry must lie ahead. A past one is bad input, not a question of the
 * address's state: refused as `invalid_request` (a 400) before anything else is judged,
 * for a grant and a renewal alike.
 */
export const expiryNotInFuture = (expiresAt: string | null, now: string): { outcome: 'refused'; refusal: Refusal } | null =>
  expiresAt !== null && Date.parse(expiresAt) <= Date.parse(now) ? refuse('invalid_request', `expiresAt ${expiresAt} is not in the future`) : null;
