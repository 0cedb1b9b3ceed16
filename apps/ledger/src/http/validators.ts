import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { LEDGER_ID, nameProblem, ownerDataProblem, parseRfc3339Time, type NameRule } from '@ledger/domain';

export const IsLedgerId = () =>
  applyDecorators(
    IsString(),
    MaxLength(128),
    Matches(LEDGER_ID, { message: '$property must be 1-128 characters of letters, digits and . _ : @ - (starting with a letter or digit)' }),
  );

/** Free text with a bound, so nobody can store a novel in the log. */
export const IsBoundedText = (max = 256, options: { each?: boolean } = {}) => applyDecorators(IsString(options), MaxLength(max, options));

/** A name that follows `rule` (libs/domain/src/names): a host name, a tag, a model... The message says the rule. */
export const IsName = (rule: NameRule, options: { each?: boolean } = {}) =>
  ValidateBy(
    {
      name: 'isName',
      validator: {
        validate: (value: unknown) => nameProblem(rule, value) === null,
        defaultMessage: (args) => `${options.each ? 'each of $property' : '$property'} ${nameProblem(rule, args?.value) ?? `must be ${rule.what}`}`,
      },
    },
    options,
  );

/** An RFC 3339 date-time, as the document's `date-time` format means: 2025-01-01T12:00:00Z. */
export const isIsoTime = (value: unknown): value is string => parseRfc3339Time(value) !== null;

export const IS_ISO_TIME_PROBLEM = 'must be an RFC 3339 date-time with seconds and a zone, e.g. 2025-01-01T12:00:00Z';

/** A body field holding an RFC 3339 date-time (isIsoTime). */
export const IsIsoTime = () => ValidateBy({ name: 'isIsoTime', validator: { validate: isIsoTime, defaultMessage: () => `$property ${IS_ISO_TIME_PROBLEM}` } });

/** Owner data (libs/domain's rules): string keys and values within bounds; the message names the first bad key. */
export const IsOwnerData = () =>
  ValidateBy({
    name: 'isOwnerData',
    validator: {
      validate: (value: unknown) => ownerDataProblem(value) === null,
      defaultMessage: (args) => `$property ${ownerDataProblem(args?.value) ?? 'must be an object of string keys and string values'}`,
    },
  });
