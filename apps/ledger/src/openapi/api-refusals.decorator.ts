import { applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, getSchemaPath } from '@nestjs/swagger';
import type { RefusalCode } from '@ledger/domain';
import { ApiErrorDto } from './api-error.dto';

/** The 409 answer of a command, with the refusal codes it can give (each a decision, recorded in the log). */
export const ApiRefusals = (...codes: RefusalCode[]) =>
  applyDecorators(
    ApiConflictResponse({
      description: `Refused: ${codes.join(', ')}. Nothing changed but the record of the refusal.`,
      schema: {
        allOf: [
          { $ref: getSchemaPath(ApiErrorDto) },
          {
            type: 'object',
            properties: {
              code: { type: 'string', enum: codes },
              position: { type: 'integer', minimum: 1, description: 'Where the CommandRefused event that records this refusal is: pass it as minPosition.' },
            },
          },
        ],
        example: { statusCode: 409, code: codes[0], message: `refused: ${codes[0]}`, correlationId: '0194a7c2-5d0e-7b6a-9f1e-3c2b1a0d9e8f' },
      },
    }),
  );
