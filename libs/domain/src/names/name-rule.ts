/**
 * A rule for a name the ledger is given, stated once so the decider, the HTTP validators
 * and the API document say the same thing: a pattern (ECMA-262, as JSON Schema and
 * OpenAPI read it), a length bound, and what to tell a caller whose name breaks it.
 */
export interface NameRule {
  /** What the name is, for messages: "a host name". */
  readonly what: string;
  readonly pattern: RegExp;
  readonly maxLength: number;
  /** The rule in words, for messages and the document: "...". */
  readonly says: string;
}

/** Null when `value` follows `rule`, else the problem in words (without the field's name). */
export const nameProblem = (rule: NameRule, value: unknown): string | null => {
  if (typeof value !== 'string') return `must be ${rule.what} (a string)`;
  if (value.length === 0) return `must be ${rule.what}: it is empty`;
  if (value.length > rule.maxLength) return `must be ${rule.what} of at most ${rule.maxLength} characters`;
  if (!rule.pattern.test(value)) return `must be ${rule.what}: ${rule.says}`;
  return null;
};

export const followsNameRule = (rule: NameRule, value: unknown): value is string => nameProblem(rule, value) === null;
