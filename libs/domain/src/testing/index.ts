/**
 * Test support for the domain: given/when/then for deciders and the node specs' fixtures.
 * Kept out of the domain's main index because it uses node:assert.
 */
export * from './decider-specification';
export * from './node-fixtures';
