import { Module } from '@nestjs/common';
import { ApplicationModule } from '../application/application.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { DevicesController } from './devices/devices.controller';
import { RegisterDeviceHandler, RemoveDeviceHandler } from './devices/device-commands.handlers';
import { LeasesController } from './leases/leases.controller';
import { GrantLeaseHandler, ReleaseLeaseHandler, RenewLeaseHandler } from './leases/lease-commands.handlers';
import { LeaseCascadeService } from './lease-cascade/lease-cascade.service';

/** Devices on allocated nodes, IP leases and the cascade that releases them when their owner ends. */
@Module({
  imports: [ApplicationModule, ReadModelsModule],
  controllers: [DevicesController, LeasesController],
  providers: [RegisterDeviceHandler, RemoveDeviceHandler, GrantLeaseHandler, RenewLeaseHandler, ReleaseLeaseHandler, LeaseCascadeService],
})
export class DevicesAndLeasesModule {}
