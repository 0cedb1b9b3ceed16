import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { IsBoundedText, IsLedgerId, IsName } from '../../http/validators';
import { LEDGER_ID, TAG_NAME } from '@ledger/domain';
import { nameSchema } from '../../http/value-formats';
import type { AcquireNodeInput } from './acquire-node.command';
import { ConsumerDto } from '../../http/consumer.dto';

export class ConstraintsDto {
  @ApiPropertyOptional({ maxLength: 32, example: 'amd64' })
  @IsOptional()
  @IsBoundedText(32)
  arch?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 65536, example: 4 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65_536)
  minCpu?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1 << 30, example: 8192 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1 << 30)
  minMemoryMb?: number;
  @ApiPropertyOptional({ type: 'array', items: nameSchema(TAG_NAME, 'gpu'), maxItems: 64, description: 'Every tag must be on the node.', example: ['gpu'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsName(TAG_NAME, { each: true })
  tags?: string[];
  @ApiPropertyOptional({
    type: 'array',
    items: nameSchema(TAG_NAME, 'virtual'),
    maxItems: 64,
    description: 'None of these tags may be on the node.',
    example: ['virtual'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsName(TAG_NAME, { each: true })
  notTags?: string[];
  @ApiPropertyOptional({ maxLength: 64, example: 'default' })
  @IsOptional()
  @IsBoundedText(64)
  zone?: string;
  @ApiPropertyOptional({ description: 'Only nodes of this resource pool (enlisted with it).', maxLength: 64, example: 'default' })
  @IsOptional()
  @IsBoundedText(64)
  pool?: string;
}

export class AcquireRequestDto implements AcquireNodeInput {
  @ApiProperty({
    description: 'Retrying with the same requestId gets the same answer and appends nothing (invariant 9).',
    pattern: LEDGER_ID.source,
    example: 'acq-2025-01-01-0001',
  })
  @IsLedgerId()
  requestId!: string;
  @ApiProperty({ type: ConsumerDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ConsumerDto)
  consumer!: ConsumerDto;
  @ApiPropertyOptional({
    description: 'Acquire this node by name; else the first ready node matching constraints. Not both nodeId and constraints.',
    pattern: LEDGER_ID.source,
    example: 'node-7',
  })
  @IsOptional()
  @IsLedgerId()
  nodeId?: string;
  @ApiPropertyOptional({ type: ConstraintsDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConstraintsDto)
  constraints?: ConstraintsDto;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', pattern: LEDGER_ID.source, maxLength: 128 },
    maxItems: 256,
    description: 'With constraints: nodes not to pick, e.g. ones the provider refused to hand over (held out of band).',
    example: ['node-3'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(256)
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  @Matches(LEDGER_ID, { each: true, message: 'each of $property must be a node id' })
  excludeNodeIds?: string[];
  @ApiPropertyOptional({ description: 'The key of a reservation on the node, consumed by this acquire (seed 3).', maxLength: 256, example: 'rk_5Jq0cV2x9L' })
  @IsOptional()
  @IsBoundedText(256)
  reservationKey?: string;
}
