import { BadRequestException } from '@nestjs/common';

const invalid = (message: string) => new BadRequestException({ code: 'invalid_request', message });

/**
 * A GET's query parameters, each given at most once, none unknown: the same strictness
 * the validation pipe gives bodies, so a typo in a filter is a 400, not a silent no-op.
 */
export const queryParams = <Name extends string>(query: Record<string, unknown>, allowed: readonly Name[]): Partial<Record<Name, string>> => {
  const unknown = Object.keys(query).filter((name) => !(allowed as readonly string[]).includes(name));
  if (unknown.length > 0) throw invalid(`unknown query parameter ${unknown.join(', ')} (expected ${allowed.join(', ')})`);
  for (const [name, value] of Object.entries(query)) if (typeof value !== 'string') throw invalid(`${name} must be given once`);
  return query as Partial<Record<Name, string>>;
};

/** A query parameter that must match `pattern` when present. */
export const matching = (name: string, value: string | undefined, pattern: RegExp, expected: string): string | undefined => {
  if (value !== undefined && !pattern.test(value)) throw invalid(`${name} must be ${expected}`);
  return value;
};

/** A non-negative integer query parameter (a global position), bounded. */
export const integerParam = (name: string, value: string | undefined, min: number, max: number): number | undefined => {
  if (value === undefined) return undefined;
  const parsed = /^[0-9]{1,15}$/.test(value) ? Number(value) : NaN;
  if (!(parsed >= min && parsed <= max)) throw invalid(`${name} must be an integer from ${min} to ${max}`);
  return parsed;
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** An ISO-8601 time with its zone (2025-01-01T12:00:00Z). */
export const timeParam = (name: string, value: string | undefined): Date | undefined => {
  if (value === undefined) return undefined;
  const time = ISO_TIME.test(value) ? new Date(value) : null;
  if (!time || Number.isNaN(time.getTime())) throw invalid(`${name} must be an ISO-8601 time with a zone, e.g. 2025-01-01T12:00:00Z`);
  return time;
};
