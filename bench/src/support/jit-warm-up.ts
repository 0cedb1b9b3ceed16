/**
 * How long a freshly started server runs one client's command cycle, unmeasured, before its
 * first measured load: long enough for V8 to have compiled the hot paths, so that what is
 * measured is a server that has warmed up (a server runs for days), the ledger and the
 * baseline alike.
 *
 * Measured as CPU time per request by thread, one client, after each warm-up (2026-12-04): V8's four helper
 * threads in the ledger took 23-59 µs of CPU a request each after 2 s (up to 126 on a slow
 * spell), compiling on the same two cores as the server's main thread, its store's writer and
 * the load generator; 11-22 after 5 s, 3-9 after 10 s, 1-5 after 15 s and 1-4 after 20 s. The
 * baseline, a page of code: 1-7 after 2 s. A measured window that opens while V8 is still
 * compiling measures the compiler as much as the server.
 */
export const JIT_WARM_UP_SECONDS = 15;
