/**
 * The last position whose event satisfies `holds` (0 if none does), for a predicate that
 * is true up to some point of the log and false after it. Binary search over positions,
 * gaps included: `firstAtOrAfter(p)` gives the first event at or after p, so it suits
 * logs whose positions are plain numbers (the embedded store, a read-model index), never
 * one where only positions the store returned may be asked for (EventStoreDB).
 */
export const lastPositionWhere = async <E extends { position: number }>(
  firstAtOrAfter: (position: number) => E | null | Promise<E | null>,
  head: number,
  holds: (event: E) => boolean,
): Promise<number> => {
  let low = 0;
  let high = head;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const event = await firstAtOrAfter(middle);
    if (event && event.position <= high && holds(event)) low = event.position;
    else high = middle - 1;
  }
  return low;
};
