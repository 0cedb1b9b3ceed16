import { ApiProperty } from '@nestjs/swagger';
import { ApiPosition, EXAMPLE_TOKEN, OPEN_OBJECT, TIME } from '../openapi/api-shapes';

export class EventMetadataDto {
  @ApiProperty({ description: 'Ties together everything one request caused.', example: '0194a7c2-5d0e-7b6a-9f1e-3c2b1a0d9e8f' }) correlationId!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The event or request that caused this one; null for a command.', example: null })
  causationId!: string | null;
  @ApiProperty({ description: 'Who caused it: a key (role:name) or a component of the ledger.', example: 'consumer:juju-1' }) actor!: string;
  @ApiProperty({ type: String, nullable: true, example: 'acq-0001' }) requestId!: string | null;
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 }) schemaVersion!: number;
}

/** One event as the store recorded it: the envelope every event has. */
export class EventEnvelopeDto {
  @ApiProperty({ example: '0194a7c2-5d0e-7b6a-9f1e-3c2b1a0d9e8f' }) id!: string;
  @ApiProperty({ example: 'NodeAcquired' }) type!: string;
  @ApiProperty({ example: 'node-node-7' }) stream!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Position within its stream, from 0.', example: 2 }) revision!: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Global position.', example: 41 }) position!: number;
  @ApiProperty(TIME) recordedAt!: string;
  @ApiProperty({ ...OPEN_OBJECT, description: "The event's own fields (by type)." }) data!: Record<string, unknown>;
  @ApiProperty({ type: EventMetadataDto }) metadata!: EventMetadataDto;
}

export class AuditEventsResponseDto {
  @ApiProperty({ type: [EventEnvelopeDto], description: 'Event envelopes, oldest first.' })
  events!: EventEnvelopeDto[];
  @ApiProperty({ type: Number, nullable: true, description: 'Pass as after for the next page (null: no more).', example: 142 }) nextAfter!: number | null;
  @ApiPosition() position!: number;
}

export class TimelineEntryDto {
  @ApiProperty({ example: 41 }) position!: number;
  @ApiProperty(TIME) at!: string;
  @ApiProperty({ example: 'NodeAcquired' }) type!: string;
  @ApiProperty({ example: 'node-node-7' }) stream!: string;
  @ApiProperty({ type: String, nullable: true, example: 'consumer:juju-1' }) actor!: string | null;
  @ApiProperty({ type: String, nullable: true, example: EXAMPLE_TOKEN }) token!: string | null;
  @ApiProperty({ description: 'What changed, in words.', example: 'acquired by juju-1/prod (epoch 3)' }) summary!: string;
  @ApiProperty({ type: String, nullable: true, example: '0194a7c2-5d0e-7b6a-9f1e-3c2b1a0d9e8f' }) correlationId!: string | null;
}

export class TimelineResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ type: [TimelineEntryDto] }) entries!: TimelineEntryDto[];
  @ApiProperty({ type: Number, nullable: true, example: null }) nextAfter!: number | null;
  @ApiPosition() position!: number;
}
