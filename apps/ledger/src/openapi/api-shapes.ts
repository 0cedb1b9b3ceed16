import { ApiProperty } from '@nestjs/swagger';

/** Shared pieces of response documents. */

export const EXAMPLE_TOKEN = 'node-7.3.k3v9QbX2mT0aLw';
export const EXAMPLE_TIME = '2025-01-01T12:00:00.000Z';

/** The global position a read reflects, or a command's events reached: pass it on as minPosition. */
export const ApiPosition = () =>
  ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Global position of the log this answer reflects (a command: its last event). Pass it as minPosition to read your own write.',
    example: 42,
  });

/** A command's answer: where its events are, or null when it appended nothing (a retry, or nothing to change). */
export const ApiCommandPosition = () =>
  ApiProperty({
    type: 'integer',
    minimum: 1,
    nullable: true,
    description:
      'Global position of the last event the command appended; null when it appended nothing (a retried requestId, or nothing changed). Pass it as minPosition to read your own write.',
    example: 42,
  });

/** An object whose fields the document does not pin down (views that grow). */
export const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

/** A moment the ledger recorded or decided: always an RFC 3339 date-time in UTC (toISOString). */
export const TIME = { type: String, format: 'date-time', example: EXAMPLE_TIME } as const;
