import { EVENT_UPCASTERS } from '@ledger/domain';
import { UpcasterRegistry } from '@ledger/event-store';

/** The ledger's one upcaster registry: the server's store and the CLI's read-only log both load through it. */
export const LEDGER_UPCASTERS = new UpcasterRegistry(EVENT_UPCASTERS);
