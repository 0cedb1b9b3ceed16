import { BadRequestException } from '@nestjs/common';
import { parseIp } from '@ledger/domain';

/** The inventory's addresses in canonical form; a bad one is a 400 naming `ips[i]`. */
export const canonicalIps = (ips: string[] | undefined): string[] | undefined =>
  ips?.map((raw, i) => {
    const parsed = parseIp(raw);
    if ('error' in parsed)
      throw new BadRequestException({
        code: 'invalid_request',
        message: `ips[${i}]: ${parsed.error}`,
        details: [{ field: `ips[${i}]`, problems: [parsed.error] }],
      });
    return parsed.ip;
  });
