import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiPosition, OPEN_OBJECT, TIME } from '../../openapi/api-shapes';

/** One node's, address's or model's state: its own entities, each with the position of the event that last changed it. */
export class ScopedStateResponseDto {
  @ApiProperty(TIME) at!: string;
  @ApiPosition() position!: number;
  @ApiProperty({ description: 'What was folded: { nodeId }, { ip } or { controller, model }.', ...OPEN_OBJECT, example: { nodeId: 'node-7' } })
  scope!: Record<string, string>;
  @ApiProperty({ description: 'Events folded (from its own streams only).', example: 12 }) folded!: number;
  @ApiProperty({ description: 'Streams read.', example: 2 }) streams!: number;
  @ApiProperty({ type: 'array', items: OPEN_OBJECT }) nodes!: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: OPEN_OBJECT }) allocations!: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: OPEN_OBJECT }) devices!: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: OPEN_OBJECT }) leases!: Record<string, unknown>[];
  @ApiPropertyOptional({ description: 'The address itself (addresses/:ip only, once it was ever leased).', ...OPEN_OBJECT }) address?: Record<string, unknown>;
}
