/** Time, injected so that tests and replays control it. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
