import { IsBoundedText } from '../../http/validators';
import { IsMacAddress } from '../../http/address-validators';

export class RegisterDeviceRequestDto {
  @IsBoundedText(253) hostname!: string;
  @IsMacAddress() mac!: string;
}
