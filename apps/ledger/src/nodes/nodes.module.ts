import { Module } from '@nestjs/common';
import { ApplicationModule } from '../application/application.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { NodesController } from './nodes.controller';
import { EnlistNodeHandler } from './enlist-node/enlist-node.handler';
import { MaintenanceController } from './maintenance/maintenance.controller';
import { SetMaintenanceHandler } from './maintenance/maintenance.handlers';
import { DeployTimeoutMonitor } from './deploy-timeout/deploy-timeout.monitor';

/** Nodes: enlistment, the node views, health (deploy timeouts) and operator maintenance. */
@Module({
  imports: [ApplicationModule, ReadModelsModule],
  controllers: [NodesController, MaintenanceController],
  providers: [EnlistNodeHandler, SetMaintenanceHandler, DeployTimeoutMonitor],
})
export class NodesModule {}
