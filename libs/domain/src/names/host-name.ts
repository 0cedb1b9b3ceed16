import type { NameRule } from './name-rule';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * A host name as RFC 1123 (section 2.1) and RFC 952 define it, the names MAAS gives its
 * machines and Juju its containers: dot-separated labels of 1-63 letters, digits and
 * hyphens, neither starting nor ending with a hyphen (a leading digit is allowed), at
 * most 253 characters, without the root's trailing dot. Case is kept as given.
 */
export const HOST_NAME: NameRule = {
  what: 'a host name',
  pattern: new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`),
  maxLength: 253,
  says: 'dot-separated labels of 1-63 letters, digits and hyphens, not starting or ending with a hyphen (RFC 1123)',
};
