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

const invalid = (message: string) => new BadRequestException({ code: 'invalid_request', message });

/** The key from the header, or else from the body (which, when sent, is CancelReservationRequestDto and nothing else). */
const reservationKeyOf = (headerKey: string | undefined, body: unknown): string => {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) throw invalid('the request body must be a JSON object');
  const fields = (body ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(fields).find((field) => field !== 'reservationKey');
  if (unknown !== undefined) throw invalid(`property ${unknown.slice(0, 64)} should not exist`);
  const bodyKey = fields.reservationKey;
  if (bodyKey !== undefined && (typeof bodyKey !== 'string' || bodyKey.length === 0 || bodyKey.length > 256)) {
    throw invalid('reservationKey must be a string of 1-256 characters');
  }
  if (headerKey !== undefined && (headerKey.length === 0 || headerKey.length > 256)) throw invalid('X-Reservation-Key must be 1-256 characters');
  const key = headerKey ?? bodyKey;
  if (key === undefined) throw invalid('reservationKey is required (X-Reservation-Key header or body)');
  return key;
};

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
  @ApiParam({ name: 'reservationId', schema: { type: 'string', pattern: LEDGER_ID.source, maxLength: 128 }, example: 'rsv-0194a7c2' })
  @ApiHeader({
    name: 'X-Reservation-Key',
    required: false,
    description: 'The reservation key (or reservationKey in the body); one of the two is required.',
    schema: { type: 'string', minLength: 1, maxLength: 256 },
  })
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
    const key = reservationKeyOf(headerKey, body);
    if (!LEDGER_ID.test(reservationId)) throw new BadRequestException({ code: 'invalid_request', message: 'reservationId is not a valid id' });
    return this.commands.execute(new CancelReservation(nodeId, reservationId, key, context));
  }
}
