import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The one error shape every route answers with (LedgerExceptionFilter writes it). */
export class ApiErrorDto {
  @ApiProperty({ description: 'The HTTP status, repeated.', example: 409 })
  statusCode!: number;

  @ApiProperty({
    description:
      'Machine-readable: a refusal code on 409 (and not_found, forbidden), else invalid_request, unauthorized, too_many_requests, payload_too_large, not_caught_up, not_ready...',
    example: 'stale_token',
  })
  code!: string;

  @ApiProperty({ description: 'What went wrong, for people; names the field for bad input.', example: 'token t-1 is not the live allocation of node-7' })
  message!: string;

  @ApiPropertyOptional({
    description: 'More about it: the fields and their problems on a 400, the decision on a 409.',
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
  })
  details?: unknown;

  @ApiPropertyOptional({
    description:
      'On a refusal the ledger recorded (409, 403): the global position of its CommandRefused event. Pass it as minPosition to read the refusal back.',
    type: 'integer',
    minimum: 1,
    example: 1249,
  })
  position?: number;

  @ApiProperty({
    description: "The request's correlation id (X-Correlation-Id): quote it when reporting a problem.",
    example: '0194a7c2-5d0e-7b6a-9f1e-3c2b1a0d9e8f',
  })
  correlationId!: string;
}
