import type { NameRule } from './name-rule';

/**
 * A MAAS tag name (maasserver's Tag model: `^[\w-]+$`, at most 256 characters): letters,
 * digits, underscores and hyphens. MAAS uses tag names in URLs, so no spaces, dots or
 * slashes; the ledger takes the ASCII letters and digits of `\w`.
 */
export const TAG_NAME: NameRule = {
  what: 'a tag name',
  pattern: /^[A-Za-z0-9_-]+$/,
  maxLength: 256,
  says: 'letters, digits, underscores and hyphens (as MAAS names tags)',
};
