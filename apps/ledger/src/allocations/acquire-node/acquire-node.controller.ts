import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { AcquireRequestDto } from './acquire.request.dto';
import { AcquireNode } from './acquire-node.command';
import { CommandMetric } from '../../http/command-metric.decorator';

@Controller('v1/allocations')
export class AcquireNodeController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @CommandMetric('allocations.acquire')
  acquire(@Body() body: AcquireRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new AcquireNode(body, context));
  }
}
