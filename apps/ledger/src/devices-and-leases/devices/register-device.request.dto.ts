import { ApiProperty } from '@nestjs/swagger';
import { HOST_NAME } from '@ledger/domain';
import { IsName } from '../../http/validators';
import { MAC_SCHEMA, nameSchema } from '../../http/value-formats';
import { IsMacAddress } from '../../http/address-validators';
import type { RegisterDeviceInput } from './device-commands.handlers';

export class RegisterDeviceRequestDto implements RegisterDeviceInput {
  @ApiProperty(nameSchema(HOST_NAME, 'juju-1-lxd-0'))
  @IsName(HOST_NAME)
  hostname!: string;
  @ApiProperty(MAC_SCHEMA)
  @IsMacAddress()
  mac!: string;
}
