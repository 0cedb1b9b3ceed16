import type { RefusalCode } from './refusal-code';

/** Why a command was refused: a machine-readable code and words for a human. */
export interface Refusal {
  code: RefusalCode;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * The outcome of deciding a command against the current state.
 * Accepted with no events means "already so": an idempotent no-op.
 */
export type Decision<Event, Reply> =
  | { outcome: 'accepted'; events: Event[]; reply: Reply }
  | { outcome: 'refused'; refusal: Refusal };

export const accept = <Event, Reply>(events: Event[], reply: Reply): Decision<Event, Reply> => ({
  outcome: 'accepted',
  events,
  reply,
});

export const refuse = (
  code: RefusalCode,
  message: string,
  details?: Record<string, unknown>,
): { outcome: 'refused'; refusal: Refusal } => ({
  outcome: 'refused',
  refusal: details ? { code, message, details } : { code, message },
});
