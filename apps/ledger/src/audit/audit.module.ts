import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AuditController } from './audit.controller';
import { AuditIndexService } from './audit-index.service';
import { AuditStreamController } from './audit-stream.controller';
import { AuditStreamService } from './audit-stream.service';
import { StateController } from './time-travel/state.controller';
import { TimeTravelService } from './time-travel/time-travel.service';
import { ScopedStateController } from './time-travel/scoped-state.controller';
import { ScopedTimeTravelService } from './time-travel/scoped-time-travel.service';
import { ReviewController } from './review/review.controller';
import { ReviewAssets } from './review/review-assets';

/**
 * The audit index and its queries, node timelines, the live audit stream, every read model
 * (or one node's, model's or address's) at a point in the past, and the review page that
 * shows them.
 */
@Module({
  imports: [ReadModelsModule],
  controllers: [AuditController, AuditStreamController, StateController, ScopedStateController, ReviewController],
  providers: [AuditIndexService, TimeTravelService, ScopedTimeTravelService, AuditStreamService, ReviewAssets],
  exports: [AuditIndexService],
})
export class AuditModule {}
