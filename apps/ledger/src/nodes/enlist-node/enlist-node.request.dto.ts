import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsBoundedText, IsLedgerId } from '../../http/validators';
import type { EnlistNodeInput } from './enlist-node.handler';

export class EnlistNodeRequestDto implements EnlistNodeInput {
  @IsLedgerId() nodeId!: string;
  @IsBoundedText(253) hostname!: string;
  @IsOptional() @IsBoundedText(32) arch?: string;
  @IsOptional() @IsInt() @Min(0) @Max(65_536) cpuCount?: number;
  @IsOptional() @IsInt() @Min(0) @Max(1 << 30) memoryMb?: number;
  @IsOptional() @IsArray() @ArrayMaxSize(64) @IsBoundedText(64, { each: true }) tags?: string[];
  @IsOptional() @IsBoundedText(64) zone?: string;
}
