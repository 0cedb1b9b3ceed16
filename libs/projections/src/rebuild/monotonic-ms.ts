/**
 * Milliseconds on the process's monotonic clock (CLOCK_MONOTONIC): one time base for every
 * thread (performance.now() counts from each thread's own start), and never stepped by NTP.
 * Only for intervals between two readings; a date is the wall clock's.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
