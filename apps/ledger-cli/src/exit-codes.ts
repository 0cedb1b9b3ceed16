/** EX_TEMPFAIL (sysexits.h): the disk refused a write; the same command succeeds once it has room again. */
export const STORAGE_FAULT_EXIT = 75;
