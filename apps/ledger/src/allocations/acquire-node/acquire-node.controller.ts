import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Ctx } from '../../http/request-context.decorator';
import type { RequestContext } from '../../application/request-context';
import { AcquireRequestDto } from './acquire.request.dto';
import { AcquireNode } from './acquire-node.command';
import { CommandMetric } from '../../http/command-metric.decorator';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiRefusals } from '../../openapi/api-refusals.decorator';
import { NodeCommandResponseDto } from '../../openapi/node-command.response.dto';

@ApiTags('allocations')
@Controller('v1/allocations')
export class AcquireNodeController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @CommandMetric('allocations.acquire')
  @ApiOperation({
    summary: 'Acquire a node: a fresh provisioning token',
    description:
      'By name (nodeId, with reservationKey if it is reserved) or by constraints. Store the token as the instance id: only the current token is honoured (fencing).',
  })
  @ApiCreatedResponse({ type: NodeCommandResponseDto })
  @ApiRefusals('node_unavailable', 'node_reserved', 'reservation_mismatch', 'no_matching_node', 'node_faulted', 'node_in_maintenance', 'request_conflict')
  acquire(@Body() body: AcquireRequestDto, @Ctx() context: RequestContext) {
    return this.commands.execute(new AcquireNode(body, context));
  }
}
