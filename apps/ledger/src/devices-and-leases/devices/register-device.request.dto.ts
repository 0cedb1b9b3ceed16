import { IsBoundedText } from '../../http/validators';
import { IsMacAddress } from '../../http/address-validators';
import type { RegisterDeviceInput } from './device-commands.handlers';

export class RegisterDeviceRequestDto implements RegisterDeviceInput {
  @IsBoundedText(253) hostname!: string;
  @IsMacAddress() mac!: string;
}
