import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength } from 'class-validator';
import { LEDGER_ID } from '@ledger/domain';

export const IsLedgerId = () =>
  applyDecorators(
    IsString(),
    MaxLength(128),
    Matches(LEDGER_ID, { message: '$property must be 1-128 characters of letters, digits and . _ : @ - (starting with a letter or digit)' }),
  );

/** Free text with a bound, so nobody can store a novel in the log. */
export const IsBoundedText = (max = 256, options: { each?: boolean } = {}) => applyDecorators(IsString(options), MaxLength(max, options));
