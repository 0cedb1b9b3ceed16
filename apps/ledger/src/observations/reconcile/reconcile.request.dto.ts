import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { IsBoundedText } from '../../http/validators';
import { ConsumerDto } from '../../http/consumer.dto';
import { IP_SCHEMA } from '../../http/value-formats';

export class InventoryInstanceDto {
  @ApiProperty({ maxLength: 128, example: '0' })
  @IsBoundedText(128)
  machine!: string;
  @ApiPropertyOptional({ description: 'Give exactly one of token or nodeId.', maxLength: 512, example: 'node-7.3.k3v9QbX2mT0aLw' })
  @IsOptional()
  @IsBoundedText(512)
  token?: string;
  @ApiPropertyOptional({ description: 'Legacy records that only kept the node id.', maxLength: 128, example: 'node-7' })
  @IsOptional()
  @IsBoundedText(128)
  nodeId?: string;
}

export class ReconcileRequestDto {
  /**
   * The same consumer object an acquire takes, so a caller passes what it has; reconcile's
   * scope is the model, so `machine`, `agentName` and `owner` are accepted and ignored.
   */
  @ApiProperty({ type: ConsumerDto, description: 'The model is the scope; machine, agentName and owner are accepted and ignored.' })
  @IsObject()
  @ValidateNested()
  @Type(() => ConsumerDto)
  consumer!: ConsumerDto;
  @ApiProperty({ type: [InventoryInstanceDto], maxItems: 10000 })
  @IsArray()
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => InventoryInstanceDto)
  instances!: InventoryInstanceDto[];
  @ApiPropertyOptional({ type: 'array', items: IP_SCHEMA, maxItems: 10000, example: ['10.0.0.17'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsBoundedText(64, { each: true })
  ips?: string[];
}
