import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsBoundedText, IsLedgerId, IsName } from '../../http/validators';
import { HOST_NAME, LEDGER_ID, TAG_NAME } from '@ledger/domain';
import { nameSchema } from '../../http/value-formats';
import type { EnlistNodeInput } from './enlist-node.handler';

export class EnlistNodeRequestDto implements EnlistNodeInput {
  @ApiProperty({ description: "The provider's system id.", pattern: LEDGER_ID.source, example: 'node-7' })
  @IsLedgerId()
  nodeId!: string;
  @ApiProperty(nameSchema(HOST_NAME, 'node-7.maas'))
  @IsName(HOST_NAME)
  hostname!: string;
  @ApiPropertyOptional({ maxLength: 32, example: 'amd64' })
  @IsOptional()
  @IsBoundedText(32)
  arch?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 65536, example: 8 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65_536)
  cpuCount?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1 << 30, example: 16384 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1 << 30)
  memoryMb?: number;
  @ApiPropertyOptional({ type: 'array', items: nameSchema(TAG_NAME, 'gpu'), maxItems: 64, example: ['gpu'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsName(TAG_NAME, { each: true })
  tags?: string[];
  @ApiPropertyOptional({ maxLength: 64, example: 'default' })
  @IsOptional()
  @IsBoundedText(64)
  zone?: string;
  @ApiPropertyOptional({ description: "The provider's resource pool (MAAS's pool); none when left out.", maxLength: 64, example: 'default' })
  @IsOptional()
  @IsBoundedText(64)
  pool?: string;
}
