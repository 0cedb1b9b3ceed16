import { Module } from '@nestjs/common';
import { RefusalRecorder } from './refusal-recorder';
import { NodeCommandService } from './node-command.service';
import { LeaseCommandService } from './lease-command.service';
import { LeaseOwnersService } from './lease-owners.service';

/** How a command reaches the store: load a stream, decide, append; refusals recorded. Shared by every feature. */
@Module({
  providers: [RefusalRecorder, NodeCommandService, LeaseCommandService, LeaseOwnersService],
  exports: [RefusalRecorder, NodeCommandService, LeaseCommandService, LeaseOwnersService],
})
export class ApplicationModule {}
