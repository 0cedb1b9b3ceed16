import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { IsBoundedText, IsLedgerId } from '../../http/validators';
import type { AcquireNodeInput } from './acquire-node.command';
import { ConsumerDto } from '../../http/consumer.dto';

export class ConstraintsDto {
  @IsOptional() @IsBoundedText(32) arch?: string;
  @IsOptional() @IsInt() @Min(0) @Max(65_536) minCpu?: number;
  @IsOptional() @IsInt() @Min(0) @Max(1 << 30) minMemoryMb?: number;
  @IsOptional() @IsArray() @ArrayMaxSize(64) @IsBoundedText(64, { each: true }) tags?: string[];
  @IsOptional() @IsBoundedText(64) zone?: string;
}

export class AcquireRequestDto implements AcquireNodeInput {
  @IsLedgerId() requestId!: string;
  @IsObject() @ValidateNested() @Type(() => ConsumerDto) consumer!: ConsumerDto;
  @IsOptional() @IsLedgerId() nodeId?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => ConstraintsDto) constraints?: ConstraintsDto;
  @IsOptional() @IsBoundedText(256) reservationKey?: string;
}
