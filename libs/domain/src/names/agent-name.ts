import type { NameRule } from './name-rule';

/**
 * The name of an agent that reserves or acquires (MAAS's agent_name: Juju sends its model
 * UUID, a tool its own name): 1-128 letters, digits and . _ : @ -, starting with a letter
 * or digit, the characters of the ledger's ids.
 */
export const AGENT_NAME: NameRule = {
  what: 'an agent name',
  pattern: /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/,
  maxLength: 128,
  says: 'letters, digits and . _ : @ -, starting with a letter or digit',
};
