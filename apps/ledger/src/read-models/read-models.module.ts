import { Module } from '@nestjs/common';
import { LedgerViewService } from './ledger-view.service';

/** The live ledger view, followed from the log: what queries, the acquire router and the guard read. */
@Module({
  providers: [LedgerViewService],
  exports: [LedgerViewService],
})
export class ReadModelsModule {}
