import { excludeSystemEvents } from '@eventstore/db-client';
import type { Filter } from '@eventstore/db-client';

/**
 * EventStoreDB keeps its own bookkeeping in $all: `$`-prefixed event types (stats, metadata,
 * links, scavenge points, ...) in `$`-prefixed streams. None of it is the ledger's; readAll,
 * subscribeToAll and headPosition all leave it out, by this one rule.
 */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/**
 * The same rule, applied by the server where the client lets it (subscriptions): it saves
 * sending the bookkeeping over the wire. The client-side check stays, as the authority.
 */
export function systemEventsFilter(): Filter {
  return excludeSystemEvents();
}
