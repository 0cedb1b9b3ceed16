import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApplicationModule } from '../application/application.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { KeyRegistry } from './key-registry';
import { AccessGuard } from './access.guard';
import { WhoAmIController } from './whoami/whoami.controller';

/** API keys and the guard in front of every route: authentication, rate limits, roles and consumer scope. */
@Module({
  imports: [ApplicationModule, ReadModelsModule],
  controllers: [WhoAmIController],
  providers: [KeyRegistry, { provide: APP_GUARD, useClass: AccessGuard }],
})
export class AccessModule {}
