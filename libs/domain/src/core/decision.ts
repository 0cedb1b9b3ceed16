import type { RefusalCode } from './refusal-code';

/** Why a command was refused: a machine-readable code (one of the decider's own) and words for a human. */
export interface Refusal<Code extends string = RefusalCode> {
  code: Code;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * The outcome of deciding a command against the current state.
 * Accepted with no events means "already so": an idempotent no-op.
 */
export type Decision<Event, Reply, Code extends string = RefusalCode> =
  { outcome: 'accepted'; events: Event[]; reply: Reply } | { outcome: 'refused'; refusal: Refusal<Code> };

export const accept = <Event, Reply>(events: Event[], reply: Reply): Decision<Event, Reply> => ({
  outcome: 'accepted',
  events,
  reply,
});

export const refuse = <Code extends string = RefusalCode>(
  code: Code,
  message: string,
  details?: Record<string, unknown>,
): { outcome: 'refused'; refusal: Refusal<Code> } => ({
  outcome: 'refused',
  refusal: details ? { code, message, details } : { code, message },
});
