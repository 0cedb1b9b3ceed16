import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, ValidateBy } from 'class-validator';
import { isApiPointInLog } from '@ledger/projections';
import { IsIsoTime } from './validators';

/**
 * Query parameters are checked by class-validator on query DTOs, like bodies: these are
 * the checks they need. Every query value is text; one given twice arrives as a list,
 * which "given once" refuses. Messages name the parameter.
 */
const once = () => IsString({ message: '$property must be given once' });

/** Text matching `pattern`; `expected` says what it must be. */
export const IsQueryText = (pattern: RegExp, expected: string) => applyDecorators(once(), Matches(pattern, { message: `$property must be ${expected}` }));

/** A whole number from `min` to `max`, written in digits. */
export const IsQueryInteger = (min: number, max: number) =>
  applyDecorators(
    once(),
    ValidateBy({
      name: 'isQueryInteger',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^[0-9]{1,16}$/.test(value) && Number(value) >= min && Number(value) <= max,
        defaultMessage: () => `$property must be an integer from ${min} to ${max}`,
      },
    }),
  );

/** An RFC 3339 date-time (2025-01-01T12:00:00Z). */
export const IsQueryTime = () => applyDecorators(once(), IsIsoTime());

/** A point of the log: a global position (digits) or an RFC 3339 date-time. */
export const IsPointInLog = (expected = 'an RFC 3339 date-time (2025-01-01T12:00:00Z) or a global position (digits)') =>
  applyDecorators(
    once(),
    ValidateBy({
      name: 'isPointInLog',
      validator: {
        validate: (value: unknown) => isApiPointInLog(value),
        defaultMessage: () => `$property must be ${expected}`,
      },
    }),
  );
