import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from '@ledger/access';

export class WhoAmIResponseDto {
  @ApiProperty({ description: 'The key id (the part of the key before its secret).', example: '0a1b2c3d4e5f' }) keyId!: string;
  @ApiProperty({ description: 'The actor named on every event this key causes.', example: 'juju-fair-clouds' }) name!: string;
  @ApiProperty({ enum: ROLES, example: 'consumer' }) role!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The controller a consumer key acts for (null for other roles).', example: 'fair-clouds' })
  controller!: string | null;
  @ApiProperty({ type: [String], nullable: true, description: 'The models a consumer key is limited to (null: all of its controller).', example: null })
  models!: string[] | null;
}
