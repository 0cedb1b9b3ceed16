import { ApiProperty } from '@nestjs/swagger';
import { ApiPosition, EXAMPLE_TIME, EXAMPLE_TOKEN, OPEN_OBJECT } from '../openapi/api-shapes';

export class AuditEventsResponseDto {
  @ApiProperty({
    type: 'array',
    items: OPEN_OBJECT,
    description: 'Event envelopes, oldest first: id, type, stream, revision, position, recordedAt, data, metadata.',
  })
  events!: Record<string, unknown>[];
  @ApiProperty({ type: Number, nullable: true, description: 'Pass as after for the next page (null: no more).', example: 142 }) nextAfter!: number | null;
  @ApiPosition() position!: number;
}

export class TimelineEntryDto {
  @ApiProperty({ example: 41 }) position!: number;
  @ApiProperty({ example: EXAMPLE_TIME }) at!: string;
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
