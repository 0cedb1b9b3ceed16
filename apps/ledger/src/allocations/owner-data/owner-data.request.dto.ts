import { ApiProperty } from '@nestjs/swagger';
import { MAX_OWNER_DATA_KEYS, MAX_OWNER_DATA_KEY_LENGTH, MAX_OWNER_DATA_VALUE_LENGTH } from '@ledger/domain';
import { IsOwnerData } from '../../http/validators';

/** Body of POST /v1/allocations/{token}/owner-data: the keys to set, and (with an empty value) to remove. */
export class OwnerDataRequestDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: MAX_OWNER_DATA_VALUE_LENGTH },
    maxProperties: MAX_OWNER_DATA_KEYS,
    description:
      `The holder's labels on its machine, as MAAS's set_owner_data takes them: each key (1-${MAX_OWNER_DATA_KEY_LENGTH} characters) set to its value; ` +
      `an empty value removes the key; keys not named are left as they are. No control characters; an allocation holds at most ${MAX_OWNER_DATA_KEYS} keys.`,
    example: { 'juju-model-uuid': 'c3f1e0d2-8a4b-4c1e-9f3a-2b7d6e5c4a10', 'juju-machine-id': '87', 'juju-is-controller': '' },
  })
  @IsOwnerData()
  ownerData!: Record<string, string>;
}
