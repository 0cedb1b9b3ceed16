import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsBoundedText, IsLedgerId } from '../../http/validators';
import { LEDGER_ID } from '@ledger/domain';
import type { EnlistNodeInput } from './enlist-node.handler';

export class EnlistNodeRequestDto implements EnlistNodeInput {
  @ApiProperty({ description: "The provider's system id.", pattern: LEDGER_ID.source, example: 'node-7' })
  @IsLedgerId()
  nodeId!: string;
  @ApiProperty({ maxLength: 253, example: 'node-7.maas' })
  @IsBoundedText(253)
  hostname!: string;
  @ApiPropertyOptional({ maxLength: 32, example: 'amd64' })
  @IsOptional()
  @IsBoundedText(32)
  arch?: string;
  @ApiPropertyOptional({ minimum: 0, maximum: 65536, example: 8 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65_536)
  cpuCount?: number;
  @ApiPropertyOptional({ minimum: 0, example: 16384 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1 << 30)
  memoryMb?: number;
  @ApiPropertyOptional({ type: [String], maxItems: 64, example: ['gpu'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsBoundedText(64, { each: true })
  tags?: string[];
  @ApiPropertyOptional({ maxLength: 64, example: 'default' })
  @IsOptional()
  @IsBoundedText(64)
  zone?: string;
}
