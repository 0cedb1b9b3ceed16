import { Module } from '@nestjs/common';
import { ApplicationModule } from '../application/application.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ObservationsController } from './observations.controller';
import { ObserveNodeHandler } from './observe-node/observe-node.handler';
import { ObservePowerHandler } from './observe-power/observe-power.handler';
import { LeaseObservationsController } from './observe-dhcp-leases/lease-observations.controller';
import { ObserveDhcpLeasesHandler } from './observe-dhcp-leases/observe-dhcp-leases.handler';
import { ReconcileController } from './reconcile/reconcile.controller';

/** What providers saw (node status, power syncs, DHCP leases) and a consumer's inventory reconciled against the ledger. */
@Module({
  imports: [ApplicationModule, ReadModelsModule],
  controllers: [ObservationsController, LeaseObservationsController, ReconcileController],
  providers: [ObserveNodeHandler, ObservePowerHandler, ObserveDhcpLeasesHandler],
})
export class ObservationsModule {}
