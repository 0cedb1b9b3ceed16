import { BadRequestException, Body, Controller, Delete, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { NodeIdParam } from '../../http/params';
import { LEDGER_ID } from '@ledger/domain';
import { ReserveNodeRequestDto } from './reserve-node.request.dto';
import { CancelReservation, ReserveNode } from './reservations.handlers';

@Controller('v1/nodes/:nodeId/reservations')
export class ReservationsController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  reserve(@Param('nodeId', NodeIdParam) nodeId: string, @Body() body: ReserveNodeRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ReserveNode(nodeId, body, context));
  }

  /** The key travels in the `X-Reservation-Key` header (a DELETE has no body by convention) or a JSON body. */
  @Delete(':reservationId')
  @HttpCode(200)
  cancel(
    @Param('nodeId', NodeIdParam) nodeId: string,
    @Param('reservationId') reservationId: string,
    @Headers('x-reservation-key') headerKey: string | undefined,
    @Body() body: Record<string, unknown> | undefined,
    @Ctx() context: RequestContext,
  ) {
    const key = headerKey ?? (typeof body?.reservationKey === 'string' ? body.reservationKey : undefined);
    if (!key || key.length > 256)
      throw new BadRequestException({ code: 'invalid_request', message: 'reservationKey is required (X-Reservation-Key header or body)' });
    if (!LEDGER_ID.test(reservationId)) throw new BadRequestException({ code: 'invalid_request', message: 'reservationId is not a valid id' });
    return this.commands.execute(new CancelReservation(nodeId, reservationId, key, context));
  }
}
