import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AuditModule } from '../audit/audit.module';
import { ProjectionsAdminController } from './projections.controller';

/** Operator tools: projection status and rebuild while serving. */
@Module({
  imports: [ReadModelsModule, AuditModule],
  controllers: [ProjectionsAdminController],
})
export class AdminModule {}
