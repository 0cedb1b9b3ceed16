import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { LEDGER_ID } from '@ledger/domain';

export const IsLedgerId = () =>
  applyDecorators(
    IsString(),
    MaxLength(128),
    Matches(LEDGER_ID, { message: '$property must be 1-128 characters of letters, digits and . _ : @ - (starting with a letter or digit)' }),
  );

/** Free text with a bound, so nobody can store a novel in the log. */
export const IsBoundedText = (max = 256, options: { each?: boolean } = {}) => applyDecorators(IsString(options), MaxLength(max, options));

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * An ISO-8601 date and time with its zone (2025-01-01T12:00:00Z), that is a real moment.
 * class-validator's IsISO8601 also takes week dates, ordinal dates and times without a
 * zone, which `new Date` cannot read or reads in the server's own zone.
 */
export const isIsoTime = (value: unknown): value is string => typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value));

const IS_ISO_TIME_MESSAGE = '$property must be an ISO-8601 time with a zone, e.g. 2025-01-01T12:00:00Z';

/** A body field holding an ISO-8601 time with its zone (isIsoTime). */
export const IsIsoTime = () => ValidateBy({ name: 'isIsoTime', validator: { validate: isIsoTime, defaultMessage: () => IS_ISO_TIME_MESSAGE } });
