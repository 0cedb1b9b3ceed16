/** A read model has not reached the position a client asked for in time: 503, retry shortly. */
export class NotCaughtUp extends Error {
  override readonly name = 'NotCaughtUp';
}
