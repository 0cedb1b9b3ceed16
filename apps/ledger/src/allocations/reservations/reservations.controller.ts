import { BadRequestException, Body, Controller, Delete, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { NodeIdParam } from '../../http/params';
import { LEDGER_ID } from '@ledger/domain';
import { ReserveNodeRequestDto } from './reserve-node.request.dto';
import { CancelReservation, ReserveNode } from './reservations.handlers';
import { ApiBody, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiRefusals } from '../../openapi/api-refusals.decorator';
import { ApiNodeIdParam } from '../../openapi/api-params';
import { CancelReservationRequestDto } from './reserve-node.request.dto';
import { CancelReservationResponseDto, ReserveNodeResponseDto } from './reservation.response.dto';

@ApiTags('reservations')
@ApiNodeIdParam()
@Controller('v1/nodes/:nodeId/reservations')
export class ReservationsController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Reserve a node for an agent (seed 3)',
    description: 'Only an acquire presenting the reservationKey gets the node while the reservation holds.',
  })
  @ApiCreatedResponse({ type: ReserveNodeResponseDto })
  @ApiRefusals('node_unavailable', 'node_reserved', 'node_faulted', 'node_in_maintenance')
  reserve(@Param('nodeId', NodeIdParam) nodeId: string, @Body() body: ReserveNodeRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ReserveNode(nodeId, body, context));
  }

  /** The key travels in the `X-Reservation-Key` header (a DELETE has no body by convention) or a JSON body. */
  @Delete(':reservationId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a reservation (its key required)' })
  @ApiParam({ name: 'reservationId', example: 'rsv-0194a7c2' })
  @ApiHeader({ name: 'X-Reservation-Key', required: false, description: 'The reservation key (or reservationKey in the body).' })
  @ApiBody({ type: CancelReservationRequestDto, required: false })
  @ApiOkResponse({ type: CancelReservationResponseDto })
  @ApiRefusals('reservation_mismatch')
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
