import { ApiProperty } from '@nestjs/swagger';
import { ApiPosition, OPEN_OBJECT, TIME } from '../../openapi/api-shapes';

/** Every read model as it stood: one list per collection (nodes, allocations, leases, devices...), each sorted by key. */
export class StateResponseDto {
  @ApiProperty(TIME) at!: string;
  @ApiPosition() position!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The snapshot the fold started from (null: from position 0).', example: 40000 }) fromSnapshot!:
    number | null;
  @ApiProperty({ description: 'Events folded after the snapshot.', example: 1234 }) folded!: number;
  @ApiProperty({ type: 'array', items: OPEN_OBJECT }) nodes!: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: OPEN_OBJECT }) allocations!: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: OPEN_OBJECT }) devices!: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: OPEN_OBJECT }) leases!: Record<string, unknown>[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The cursor of the next page (pass it as `after`); null on the last page.',
    example: 'nodes:node-7',
  })
  next!: string | null;
}
