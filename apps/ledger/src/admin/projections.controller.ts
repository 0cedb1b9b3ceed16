import { NoQueryParameters } from '../http/no-query.pipe';
import { ConflictException, Controller, Get, NotFoundException, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import { AUDIT_INDEX, ledgerProjection, RebuildInProgressError, type RebuildProgress, type RebuildResult } from '@ledger/projections';
import { LedgerViewService } from '../read-models/ledger-view.service';
import { AuditIndexService } from '../audit/audit-index.service';
import { ApiAcceptedResponse, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorDto } from '../openapi/api-error.dto';
import { RebuildQueryDto } from './rebuild.query.dto';
import { Ctx } from '../http/request-context.decorator';
import type { RequestContext } from '../application/request-context';
import { ProjectionListResponseDto, RebuildResponseDto } from './projections.response.dto';

interface Rebuildable {
  projection: string;
  position: number;
  rebuilding: RebuildProgress | null;
  rebuild(correlationId: string): Promise<RebuildResult>;
}

/**
 * Operators rebuild a read model from position 0 while the API keeps serving it: the
 * old one answers until the new one has caught up with the log, then they swap.
 */
@ApiTags('admin')
@Controller('v1/admin/projections')
export class ProjectionsAdminController {
  constructor(
    private readonly views: LedgerViewService,
    private readonly audit: AuditIndexService,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(ProjectionsAdminController.name);
  }

  private get projections(): Record<string, Rebuildable> {
    const views = this.views;
    const audit = this.audit;
    return {
      'ledger-view': {
        projection: ledgerProjection.name,
        get position() {
          return views.position;
        },
        get rebuilding() {
          return views.rebuilding;
        },
        rebuild: (correlationId) => views.rebuild(correlationId),
      },
      'audit-index': {
        projection: AUDIT_INDEX,
        get position() {
          return audit.position;
        },
        get rebuilding() {
          return audit.rebuilding;
        },
        rebuild: (correlationId) => audit.rebuild(correlationId),
      },
    };
  }

  @Get()
  @ApiOperation({ summary: 'The read models: position, and any rebuild under way' })
  @ApiOkResponse({ type: ProjectionListResponseDto })
  async list(@Query(NoQueryParameters) _query: unknown) {
    // The view's position past every command answered so far (the audit index keeps its own pace).
    await this.views.current();
    return {
      projections: Object.entries(this.projections).map(([name, p]) => ({ name, projection: p.projection, position: p.position, rebuilding: p.rebuilding })),
    };
  }

  /** 202 at once (poll GET /v1/admin/projections), or with `?wait=true` 200 once the new model answers. */
  @Post(':name/rebuild')
  @ApiOperation({ summary: 'Rebuild a read model from position 0 while the old one keeps answering' })
  @ApiParam({ name: 'name', enum: ['ledger-view', 'audit-index'] })
  @ApiOkResponse({ type: RebuildResponseDto, description: 'wait=true: rebuilt; the new model answers.' })
  @ApiAcceptedResponse({ type: RebuildResponseDto, description: 'Started; poll GET /v1/admin/projections.' })
  @ApiConflictResponse({ type: ApiErrorDto, description: 'rebuild_in_progress: that read model is being rebuilt already.' })
  async rebuild(
    @Param('name') name: string,
    @Query() query: RebuildQueryDto,
    @Ctx() { correlationId }: RequestContext,
    @Res({ passthrough: true }) response: FastifyReply,
  ) {
    const { wait } = query;
    const target = this.projections[name];
    if (!target) throw new NotFoundException({ code: 'not_found', message: `no projection ${name}; there are ${Object.keys(this.projections).join(', ')}` });
    let done: Promise<RebuildResult>;
    try {
      done = target.rebuild(correlationId);
    } catch (error) {
      if (error instanceof RebuildInProgressError)
        throw new ConflictException({ code: 'rebuild_in_progress', message: `${name} is already being rebuilt`, details: { rebuilding: target.rebuilding } });
      throw error;
    }
    if (wait === 'true') {
      response.status(200);
      return { name, projection: target.projection, status: 'rebuilt', ...(await done) };
    }
    done.catch((error: unknown) => this.logger.error({ correlationId, err: error, projection: name }, 'rebuild failed; the old read model keeps answering'));
    response.status(202);
    return { name, projection: target.projection, status: 'rebuilding', rebuilding: target.rebuilding };
  }
}
