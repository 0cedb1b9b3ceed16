import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AuditController } from './audit.controller';
import { AuditIndexService } from './audit-index.service';
import { StateController } from './time-travel/state.controller';
import { TimeTravelService } from './time-travel/time-travel.service';

/** The audit index and its queries, node timelines, and every read model at a point in the past. */
@Module({
  imports: [ReadModelsModule],
  controllers: [AuditController, StateController],
  providers: [AuditIndexService, TimeTravelService],
  exports: [AuditIndexService],
})
export class AuditModule {}
