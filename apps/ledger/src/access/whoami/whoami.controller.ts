import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@ledger/access';
import { WhoAmIResponseDto } from './whoami.response.dto';

/**
 * The caller's own principal, so a client that acts for others (the MAAS facade) can
 * learn which controller a key speaks for without holding any list of keys itself.
 */
@ApiTags('access')
@Controller('v1/whoami')
export class WhoAmIController {
  @Get()
  @ApiOperation({ summary: "The API key's principal: name, role and consumer scope" })
  @ApiOkResponse({ type: WhoAmIResponseDto })
  whoami(@Req() request: FastifyRequest & { principal?: Principal }): WhoAmIResponseDto {
    // The access guard has authenticated the key before this runs; every role may ask.
    const principal = request.principal as Principal;
    return {
      keyId: principal.keyId,
      name: principal.name,
      role: principal.role,
      controller: principal.scope?.controller ?? null,
      models: principal.scope?.models ?? null,
    };
  }
}
