import { Module } from '@nestjs/common';
import { ApplicationModule } from '../application/application.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AllocationsController } from './allocations.controller';
import { AcquireNodeController } from './acquire-node/acquire-node.controller';
import { AcquireService } from './acquire-node/acquire.service';
import { AcquireNodeHandler } from './acquire-node/acquire-node.handler';
import { RunTokenCommandHandler } from './allocation-lifecycle/token-commands.handlers';
import { ReleaseModelHandler } from './release-model/release-model.handler';
import { ReservationsController } from './reservations/reservations.controller';
import { CancelReservationHandler, ReserveNodeHandler } from './reservations/reservations.handlers';

/** Allocations: acquire, deployment progress, release, whole-model release, reservations. */
@Module({
  imports: [ApplicationModule, ReadModelsModule],
  controllers: [AcquireNodeController, AllocationsController, ReservationsController],
  providers: [AcquireService, AcquireNodeHandler, RunTokenCommandHandler, ReleaseModelHandler, ReserveNodeHandler, CancelReservationHandler],
})
export class AllocationsModule {}
