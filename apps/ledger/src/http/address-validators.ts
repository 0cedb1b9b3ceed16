import { ValidateBy } from 'class-validator';
import { parseIp, parseMac } from '@ledger/domain';

/** An IPv4 or IPv6 address (any spelling; handlers store the canonical one). */
export const IsIpAddress = () =>
  ValidateBy({
    name: 'isIpAddress',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && 'ip' in parseIp(value),
      defaultMessage: (args) =>
        `$property ${typeof args?.value === 'string' ? ('error' in parseIp(args.value) ? (parseIp(args.value) as { error: string }).error : '') : 'must be an IPv4 or IPv6 address'}`,
    },
  });

/** A unicast MAC address (any usual spelling; handlers store the canonical one). */
export const IsMacAddress = () =>
  ValidateBy({
    name: 'isMacAddress',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && 'mac' in parseMac(value),
      defaultMessage: (args) =>
        `$property ${typeof args?.value === 'string' ? ((parseMac(args.value) as { error?: string }).error ?? '') : 'must be a MAC address such as 2c:59:e5:3b:a1:e4'}`,
    },
  });
