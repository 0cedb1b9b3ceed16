import { ApiProperty } from '@nestjs/swagger';
import { IsBoundedText } from '../../http/validators';
import { IsMacAddress } from '../../http/address-validators';
import type { RegisterDeviceInput } from './device-commands.handlers';

export class RegisterDeviceRequestDto implements RegisterDeviceInput {
  @ApiProperty({ maxLength: 253, example: 'juju-1-lxd-0' })
  @IsBoundedText(253)
  hostname!: string;
  @ApiProperty({ description: 'A unicast MAC address.', example: '52:54:00:12:34:56' })
  @IsMacAddress()
  mac!: string;
}
