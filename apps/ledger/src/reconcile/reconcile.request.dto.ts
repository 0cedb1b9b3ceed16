import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { IsBoundedText } from '../http/validators';
import { ConsumerDto } from '../allocations/acquire.request.dto';

export class InventoryInstanceDto {
  @IsBoundedText(128) machine!: string;
  @IsOptional() @IsBoundedText(512) token?: string;
  @IsOptional() @IsBoundedText(128) nodeId?: string;
}

export class ReconcileRequestDto {
  /**
   * The same consumer object an acquire takes, so a caller passes what it has; reconcile's
   * scope is the model, so `machine`, `agentName` and `owner` are accepted and ignored.
   */
  @IsObject() @ValidateNested() @Type(() => ConsumerDto) consumer!: ConsumerDto;
  @IsArray() @ArrayMaxSize(10_000) @ValidateNested({ each: true }) @Type(() => InventoryInstanceDto) instances!: InventoryInstanceDto[];
  @IsOptional() @IsArray() @ArrayMaxSize(10_000) @IsBoundedText(64, { each: true }) ips?: string[];
}
