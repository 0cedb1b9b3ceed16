import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { IsBoundedText } from '../../http/validators';

export class ReconcileConsumerDto {
  @IsBoundedText(128) controller!: string;
  @IsBoundedText(128) model!: string;
}

export class InventoryInstanceDto {
  @IsBoundedText(128) machine!: string;
  @IsOptional() @IsBoundedText(512) token?: string;
  @IsOptional() @IsBoundedText(128) nodeId?: string;
}

export class ReconcileRequestDto {
  @IsObject() @ValidateNested() @Type(() => ReconcileConsumerDto) consumer!: ReconcileConsumerDto;
  @IsArray() @ArrayMaxSize(10_000) @ValidateNested({ each: true }) @Type(() => InventoryInstanceDto) instances!: InventoryInstanceDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(10_000) @IsBoundedText(64, { each: true }) ips?: string[];
}
