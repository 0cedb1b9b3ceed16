import { Module } from '@nestjs/common';
import { ApplicationModule } from '../application/application.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { DevicesController } from './devices/devices.controller';
import { RegisterDeviceHandler, RemoveDeviceHandler } from './devices/device-commands.handlers';
import { LeasesController } from './leases/leases.controller';
import { GrantLeaseHandler, ReleaseLeaseHandler, RenewLeaseHandler } from './leases/lease-commands.handlers';
import { LeaseCascadeService } from './lease-cascade/lease-cascade.service';
import { DhcpReclaimsController } from './record-dhcp-reclaim/dhcp-reclaims.controller';
import { RecordDhcpReclaimHandler } from './record-dhcp-reclaim/record-dhcp-reclaim.handler';

/** Devices on allocated nodes, IP leases and the cascade that releases them when their owner ends. */
@Module({
  imports: [ApplicationModule, ReadModelsModule],
  controllers: [DevicesController, LeasesController, DhcpReclaimsController],
  providers: [
    RegisterDeviceHandler,
    RemoveDeviceHandler,
    GrantLeaseHandler,
    RenewLeaseHandler,
    ReleaseLeaseHandler,
    RecordDhcpReclaimHandler,
    LeaseCascadeService,
  ],
})
export class DevicesAndLeasesModule {}
