import { BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import { parseIp } from '@ledger/domain';

/** An IP address from the path, in its canonical form (the one its stream is named after). */
@Injectable()
export class IpParam implements PipeTransform<string, string> {
  transform(value: string): string {
    const parsed = parseIp(value);
    if ('error' in parsed) throw new BadRequestException({ code: 'invalid_request', message: `ip "${value.slice(0, 64)}" ${parsed.error}` });
    return parsed.ip;
  }
}
