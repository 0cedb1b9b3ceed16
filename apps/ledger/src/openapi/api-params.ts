import { ApiParam } from '@nestjs/swagger';
import { LEDGER_ID } from '@ledger/domain';
import { IP_SCHEMA } from '../http/value-formats';

/** Path parameters, each checked by its own pipe (NodeIdParam, TokenParam, IpParam), documented once here. */
export const ApiNodeIdParam = () =>
  ApiParam({
    name: 'nodeId',
    description: "The provider's system id.",
    schema: { type: 'string', pattern: LEDGER_ID.source, maxLength: 128 },
    example: 'node-7',
  });
export const ApiTokenParam = () =>
  ApiParam({
    name: 'token',
    description: 'The provisioning token acquire returned (opaque; not a token: 404).',
    schema: { type: 'string', maxLength: 512 },
    example: 'node-7.3.k3v9QbX2mT0aLw',
  });
export const ApiIpParam = () => ApiParam({ name: 'ip', description: IP_SCHEMA.description, schema: IP_SCHEMA, example: '10.0.0.17' });
export const ApiDeviceIdParam = () =>
  ApiParam({ name: 'deviceId', description: 'The id register returned.', schema: { type: 'string', maxLength: 512 }, example: 'node-7.3.d1' });
