import { ApiProperty } from '@nestjs/swagger';
import { ApiCommandPosition, EXAMPLE_TOKEN } from '../../openapi/api-shapes';

/** An allocation's owner data in an answer: every key it holds. */
export const OWNER_DATA_SCHEMA = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { 'juju-model-uuid': 'c3f1e0d2-8a4b-4c1e-9f3a-2b7d6e5c4a10', 'juju-machine-id': '87' },
} as const;

/** What setting owner data answers: the allocation's owner data as it is now. */
export class OwnerDataResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ example: EXAMPLE_TOKEN }) token!: string;
  @ApiProperty({ example: 3 }) epoch!: number;
  @ApiProperty({ description: "The allocation's deployment status.", example: 'deploying' }) status!: string;
  @ApiProperty({ ...OWNER_DATA_SCHEMA, description: 'Every key the allocation holds now.' }) ownerData!: Record<string, string>;
  @ApiCommandPosition() position!: number | null;
}
