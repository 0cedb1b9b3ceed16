import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../application/request-context';
import { NodeObservationRequestDto } from './observe-node/node-observation.request.dto';
import { ObserveNode } from './observe-node/observe-node.handler';
import { PowerObservationRequestDto } from './observe-power/power-observation.request.dto';
import { ObservePower } from './observe-power/observe-power.handler';

@Controller('v1/observations')
export class ObservationsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('nodes')
  @HttpCode(200)
  node(@Body() body: NodeObservationRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ObserveNode(body, context));
  }

  @Post('power')
  @HttpCode(200)
  power(@Body() body: PowerObservationRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ObservePower(body, context));
  }
}
