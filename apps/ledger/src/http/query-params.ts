import { BadRequestException } from '@nestjs/common';

/**
 * Checks for values that reach a handler outside a validated DTO (a path parameter, the
 * Last-Event-ID header): the same messages the query DTOs' validators give.
 */
const invalid = (message: string) => new BadRequestException({ code: 'invalid_request', message });

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
