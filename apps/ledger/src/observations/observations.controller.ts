import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../application/request-context';
import { NodeObservationRequestDto } from './observe-node/node-observation.request.dto';
import { ObserveNode } from './observe-node/observe-node.handler';
import { PowerObservationRequestDto } from './observe-power/power-observation.request.dto';
import { ObservePower } from './observe-power/observe-power.handler';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NodeCommandResponseDto } from '../openapi/node-command.response.dto';
import { PowerObservationResponseDto } from './observation.response.dto';

@ApiTags('observations')
@Controller('v1/observations')
export class ObservationsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('nodes')
  @HttpCode(200)
  @ApiOperation({
    summary: 'What a provider saw of a node',
    description: 'A node the provider shows free while the ledger has it allocated revokes that allocation (seed 1): its token goes stale.',
  })
  @ApiOkResponse({ type: NodeCommandResponseDto })
  node(@Body() body: NodeObservationRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ObserveNode(body, context));
  }

  @Post('power')
  @HttpCode(200)
  @ApiOperation({ summary: 'A power-sync result', description: 'Consecutive failures fault the node automatically; a success clears the fault (seed 4).' })
  @ApiOkResponse({ type: PowerObservationResponseDto })
  power(@Body() body: PowerObservationRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ObservePower(body, context));
  }
}
