/** Ids that become parts of stream names: printable, bounded, no spaces or slashes. */
export const LEDGER_ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
