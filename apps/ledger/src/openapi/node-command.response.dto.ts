import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiCommandPosition, EXAMPLE_TOKEN, OPEN_OBJECT } from './api-shapes';

/** What a command on a node's stream answers (acquire, deployment reports, release, a provider's observation). */
export class NodeCommandResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiPropertyOptional({ description: 'The provisioning token: store it as the instance id.', example: EXAMPLE_TOKEN }) token?: string;
  @ApiPropertyOptional({ example: 3 }) epoch?: number;
  @ApiPropertyOptional({ example: 'acquired' }) status?: string;
  @ApiPropertyOptional({ type: [String], description: 'Release of a faulted node: provider-side work left pending.' }) pendingCleanup?: string[];
  @ApiPropertyOptional({ description: 'A retried requestId: this is the first answer again, nothing was appended.', example: true }) replayed?: boolean;
  @ApiPropertyOptional({ description: "On a replayed answer: whether the token is still the node's live allocation.", example: false }) live?: boolean;
  @ApiPropertyOptional({ ...OPEN_OBJECT, nullable: true, description: 'On a replayed answer: how the token ended, if it has.', example: { kind: 'revoked' } })
  ending?: Record<string, unknown> | null;
  @ApiCommandPosition() position!: number | null;
}
