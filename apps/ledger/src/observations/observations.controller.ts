import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../command-side/request-context';
import { NodeObservationRequestDto } from './node-observation.request.dto';
import { ObserveNode } from './observe-node.handler';

@Controller('v1/observations')
export class ObservationsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('nodes')
  @HttpCode(200)
  node(@Body() body: NodeObservationRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new ObserveNode(body, context));
  }
}
