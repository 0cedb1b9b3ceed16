/** Nest injection tokens for things that are interfaces, not classes. */
export const LEDGER_CONFIG = Symbol('LEDGER_CONFIG');
export const EVENT_STORE = Symbol('EVENT_STORE');
export const CLOCK = Symbol('CLOCK');
export const RANDOMNESS = Symbol('RANDOMNESS');
