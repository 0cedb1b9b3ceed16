import { SetMetadata } from '@nestjs/common';

export const COMMAND_METRIC = 'ledger:command-metric';

/** Names a route's command in `ledger_commands_total` when its controller's name does not (a use-case controller). */
export const CommandMetric = (name: string) => SetMetadata(COMMAND_METRIC, name);
